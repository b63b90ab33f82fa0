package dev.ourios.parquet.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

/**
 * The memo must be invisible: for any sequence of values (repeated constant instances, reused buffers whose bytes
 * change, equal values in different instances, enough distinct values to make parquet-java fall back to plain),
 * the pages and dictionaries are byte for byte parquet-java's.
 */
class MemoisedBinaryDictionaryWriterTest {
    @Test
    void writes_exactly_what_parquet_java_writes() throws Exception {
        long seed = new Random().nextLong();
        System.out.println("MemoisedBinaryDictionaryWriterTest seed " + seed);
        Random rnd = new Random(seed);
        for (int round = 0; round < 20; round++) {
            int distinct = 1 + rnd.nextInt(round % 4 == 3 ? 5000 : 100);
            List<Binary> constants = new ArrayList<>();
            for (int i = 0; i < distinct; i++) {
                constants.add(Binary.fromConstantByteArray(value(rnd, i)));
            }
            int maxDictionary = 1 << (8 + rnd.nextInt(10));
            ValuesWriter stock = writer(false, maxDictionary);
            ValuesWriter memo = writer(true, maxDictionary);
            byte[] reused = new byte[256];
            for (int page = 0; page < 3; page++) {
                for (int i = 0; i < 2000; i++) {
                    Binary v;
                    int pick = rnd.nextInt(10);
                    if (pick < 7) {
                        v = constants.get(rnd.nextInt(Math.min(distinct, 1 + rnd.nextInt(8))));
                    } else if (pick < 9) { // the same bytes as a constant, in a buffer that is then overwritten
                        byte[] b = constants.get(rnd.nextInt(distinct)).getBytes();
                        System.arraycopy(b, 0, reused, 0, b.length);
                        v = Binary.fromReusedByteArray(reused, 0, b.length);
                    } else {
                        v = Binary.fromConstantByteArray(value(rnd, rnd.nextInt(distinct + 50)));
                    }
                    stock.writeBytes(v);
                    memo.writeBytes(v);
                    java.util.Arrays.fill(reused, (byte) rnd.nextInt());
                }
                String ctx = "seed " + seed + " round " + round + " page " + page;
                assertEquals(stock.getEncoding(), memo.getEncoding(), ctx);
                assertArrayEquals(stock.getBytes().toByteArray(), memo.getBytes().toByteArray(), ctx);
                stock.reset();
                memo.reset();
            }
            DictionaryPage a = stock.toDictPageAndClose();
            DictionaryPage b = memo.toDictPageAndClose();
            assertEquals(a == null, b == null, "seed " + seed);
            if (a != null) {
                assertEquals(a.getDictionarySize(), b.getDictionarySize());
                assertArrayEquals(a.getBytes().toByteArray(), b.getBytes().toByteArray(), "seed " + seed);
            }
            stock.resetDictionary();
            memo.resetDictionary();
        }
    }

    private static byte[] value(Random rnd, int i) {
        return ("{\"service.name\":\"svc-" + i + "\",\"pad\":\"" + "x".repeat(i % 40) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static ValuesWriter writer(boolean memoised, int maxDictionaryBytes) {
        var alloc = new HeapByteBufferAllocator();
        DictionaryValuesWriter dict = memoised
                ? new MemoisedBinaryDictionaryWriter(maxDictionaryBytes, Encoding.PLAIN_DICTIONARY,
                        Encoding.PLAIN_DICTIONARY, alloc)
                : new DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter(maxDictionaryBytes,
                        Encoding.PLAIN_DICTIONARY, Encoding.PLAIN_DICTIONARY, alloc);
        return FallbackValuesWriter.of(dict, new PlainValuesWriter(1024, 1 << 20, alloc));
    }
}
