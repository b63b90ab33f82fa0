package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/**
 * A column chunk's statistics prove a column test for every row only when every value, and every null, passes it:
 * checked against the values themselves for random chunks of signed and unsigned integers (including unsigned values
 * that read negative as the test reads them) and strings.
 */
class StatisticsProofTest {
    private static final PrimitiveType INT64 = Types.optional(PrimitiveTypeName.INT64).named("x");
    private static final PrimitiveType UINT32 = Types.optional(PrimitiveTypeName.INT32)
            .as(LogicalTypeAnnotation.intType(32, false)).named("x");
    private static final PrimitiveType UINT64 = Types.optional(PrimitiveTypeName.INT64)
            .as(LogicalTypeAnnotation.intType(64, false)).named("x");
    private static final PrimitiveType STRING = Types.optional(PrimitiveTypeName.BINARY)
            .as(LogicalTypeAnnotation.stringType()).named("x");

    @Test
    void aProofHoldsForEveryValueOfTheChunk() {
        long seed = System.nanoTime();
        System.out.println("StatisticsProofTest seed " + seed);
        Random rnd = new Random(seed);
        int proven = 0;
        for (int i = 0; i < 20_000; i++) {
            String what = "seed " + seed + " case " + i;
            PrimitiveType type = List.of(INT64, UINT32, UINT64).get(rnd.nextInt(3));
            List<Long> values = new ArrayList<>();
            Statistics<?> stats = Statistics.createStats(type);
            long base = type == UINT32 ? (rnd.nextBoolean() ? 0 : Integer.MAX_VALUE - 3)
                    : (rnd.nextBoolean() ? 0 : Long.MAX_VALUE - 3);
            int n = 1 + rnd.nextInt(6);
            for (int k = 0; k < n; k++) {
                if (rnd.nextInt(5) == 0) {
                    values.add(null);
                    stats.incrementNumNulls();
                    continue;
                }
                long v = base + rnd.nextInt(8);
                if (type == UINT32) {
                    values.add((long) (int) v); // the signed int a reader holds
                    stats.updateStats((int) v);
                } else {
                    values.add(v);
                    stats.updateStats(v);
                }
            }
            long min = values.stream().filter(v -> v != null).mapToLong(Long::longValue).min().orElse(0)
                    + rnd.nextInt(3) - 1;
            long max = min + rnd.nextInt(5);
            boolean nullPasses = rnd.nextBoolean();
            ColumnTest.LongRange test = new ColumnTest.LongRange("x", min, max, nullPasses);
            boolean every = values.stream().allMatch(v -> v == null ? nullPasses : test.matches(v));
            boolean proof = StatisticsProof.everyRowPasses(test, stats);
            if (proof) {
                proven++;
                assertTrue(every, what + ": proved " + test + " over " + values + " (" + type + ")");
            }
            if (every && values.stream().allMatch(v -> v != null) && type == INT64) {
                assertTrue(proof, what + ": a signed chunk inside the range proves it: " + values);
            }
        }
        assertTrue(proven > 1000, "proofs found: " + proven);
    }

    @Test
    void unsignedValuesStraddlingTheSignBitProveNothing() {
        Statistics<?> stats = Statistics.createStats(UINT32);
        stats.updateStats(5);
        stats.updateStats((int) 0x8000_0005L); // reads as -2147483643
        assertFalse(StatisticsProof.everyRowPasses(new ColumnTest.LongRange("x", Long.MIN_VALUE, Long.MAX_VALUE,
                false), stats));
    }

    @Test
    void bytesAreProvenOnlyWhenTheChunkHoldsThatOneValue() {
        byte[] acme = "acme".getBytes(StandardCharsets.UTF_8);
        Statistics<?> one = Statistics.createStats(STRING);
        one.updateStats(Binary.fromString("acme"));
        one.updateStats(Binary.fromString("acme"));
        assertTrue(StatisticsProof.everyRowPasses(new ColumnTest.BytesEqual("x", acme, false), one));

        Statistics<?> two = Statistics.createStats(STRING);
        two.updateStats(Binary.fromString("acme"));
        two.updateStats(Binary.fromString("acmf"));
        assertFalse(StatisticsProof.everyRowPasses(new ColumnTest.BytesEqual("x", acme, false), two));

        one.incrementNumNulls();
        assertFalse(StatisticsProof.everyRowPasses(new ColumnTest.BytesEqual("x", acme, false), one));
        assertTrue(StatisticsProof.everyRowPasses(new ColumnTest.BytesEqual("x", acme, true), one));
    }

    @Test
    void absentOrEmptyStatisticsOrAnUnknownNullCountProveNothing() {
        ColumnTest.LongRange any = new ColumnTest.LongRange("x", Long.MIN_VALUE, Long.MAX_VALUE, false);
        assertFalse(StatisticsProof.everyRowPasses(any, null));
        assertFalse(StatisticsProof.everyRowPasses(any, Statistics.createStats(INT64)));
        Statistics<?> noNullCount = Statistics.getBuilderForReading(INT64)
                .withMin(new byte[8]).withMax(new byte[8]).build();
        assertFalse(noNullCount.isNumNullsSet());
        assertFalse(StatisticsProof.everyRowPasses(any, noNullCount));
        Statistics<?> allNull = Statistics.createStats(INT64);
        allNull.incrementNumNulls();
        assertFalse(StatisticsProof.everyRowPasses(any, allNull));
        assertEquals(true, StatisticsProof.everyRowPasses(new ColumnTest.LongRange("x", 0, 0, true), allNull));
    }
}
