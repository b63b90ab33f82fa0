package dev.ourios.parquet.runs;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import dev.ourios.parquet.internal.PerThreadPool;
import dev.ourios.parquet.write.WriterOptions;
import java.util.concurrent.Future;

/**
 * Helper threads that ZSTD-compress the row groups of sort runs ({@link RunFileWriter}) while the caller fills the
 * next ones. A spill stops run formation: the input readers wait on their full queue while the compacting thread
 * sorts and writes the run, and compressing the run is most of that pause, on one core.
 * With two of these threads the pause is shorter and uses both cores. Each thread has its own compression context
 * (zstd contexts are not thread-safe); the compressed bytes depend only on the input and the level, so a run is
 * the same file whichever thread compressed which group.
 */
public final class RunCompressors implements AutoCloseable {
    /** A row group's compressed page: {@code bytes[0, size)}. */
    record Compressed(byte[] bytes, int size) {
    }

    private final PerThreadPool<ZstdCompressCtx> pool;
    private final int threads;

    public RunCompressors(int threads, String threadName) {
        this.threads = threads;
        this.pool = new PerThreadPool<>(threads, threadName, () -> {
            ZstdCompressCtx c = new ZstdCompressCtx();
            c.setLevel(WriterOptions.SPILL_ZSTD_LEVEL);
            return c;
        }, ZstdCompressCtx::close);
    }

    int threads() {
        return threads;
    }

    /**
     * Compresses {@code page[0, length)} on a helper into {@code out} if it is large enough (else into a new array);
     * the caller must not touch either array until the result is in.
     */
    Future<Compressed> compress(byte[] page, int length, byte[] out) {
        return pool.submit(context -> {
            int bound = (int) Zstd.compressBound(length);
            byte[] target = out != null && out.length >= bound ? out : new byte[bound];
            int size = context.compressByteArray(target, 0, target.length, page, 0, length);
            return new Compressed(target, size);
        });
    }

    @Override
    public void close() {
        pool.close();
    }
}
