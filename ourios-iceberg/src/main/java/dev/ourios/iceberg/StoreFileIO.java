package dev.ourios.iceberg;

import dev.ourios.store.AtomicOutput;
import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * Iceberg's file interface over our {@link ObjectStore}: the table view reads and writes its metadata through the
 * same store code as everything else (local disk or S3, atomic publish), so no Hadoop file system or cloud SDK of
 * Iceberg's is needed. Writes become visible whole on close; {@link OutputFile#create()} refuses an existing
 * object. The commit of a table version does not go through here: {@link StoreTableOperations} publishes it
 * create-only.
 */
public final class StoreFileIO implements FileIO {
    private static final long serialVersionUID = 1L;

    private final transient ObjectStore store;
    private final StoreLocation location;

    public StoreFileIO(ObjectStore store, StoreLocation location) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.location = Objects.requireNonNull(location, "location is null");
    }

    @Override
    public InputFile newInputFile(String path) {
        return new StoreInputFile(path, location.key(path), -1);
    }

    @Override
    public InputFile newInputFile(String path, long length) {
        return new StoreInputFile(path, location.key(path), length);
    }

    @Override
    public OutputFile newOutputFile(String path) {
        return new StoreOutputFile(path, location.key(path));
    }

    @Override
    public void deleteFile(String path) {
        try {
            store.delete(location.key(path));
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + path + ": " + e.getMessage(), e);
        }
    }

    private final class StoreInputFile implements InputFile {
        private final String path;
        private final String key;
        private long length;

        StoreInputFile(String path, String key, long length) {
            this.path = path;
            this.key = key;
            this.length = length;
        }

        @Override
        public long getLength() {
            if (length < 0) {
                length = stat().orElseThrow(() -> new NotFoundException("no such file: %s", path)).size();
            }
            return length;
        }

        @Override
        public SeekableInputStream newStream() {
            try {
                return new StoreSeekableStream(store.openRandomAccess(key));
            } catch (NoSuchObjectException e) {
                throw new NotFoundException(e, "no such file: %s", path);
            } catch (IOException e) {
                throw new UncheckedIOException("could not open " + path + ": " + e.getMessage(), e);
            }
        }

        @Override
        public String location() {
            return path;
        }

        @Override
        public boolean exists() {
            return stat().isPresent();
        }

        private Optional<ObjectInfo> stat() {
            try {
                return store.stat(key);
            } catch (IOException e) {
                throw new UncheckedIOException("could not stat " + path + ": " + e.getMessage(), e);
            }
        }
    }

    private final class StoreOutputFile implements OutputFile {
        private final String path;
        private final String key;

        StoreOutputFile(String path, String key) {
            this.path = path;
            this.key = key;
        }

        @Override
        public PositionOutputStream create() {
            // Iceberg names every manifest and manifest list uniquely, so this check only guards against misuse;
            // the one write that must be create-only under a race (a table version) is published elsewhere.
            if (toInputFile().exists()) {
                throw new AlreadyExistsException("already exists: %s", path);
            }
            return createOrOverwrite();
        }

        @Override
        public PositionOutputStream createOrOverwrite() {
            try {
                return new CommitOnClose(store.create(key));
            } catch (IOException e) {
                throw new UncheckedIOException("could not create " + path + ": " + e.getMessage(), e);
            }
        }

        @Override
        public String location() {
            return path;
        }

        @Override
        public InputFile toInputFile() {
            return new StoreInputFile(path, key, -1);
        }
    }

    /** Publishes the object when Iceberg closes the stream, which it does only after writing all of it. */
    private static final class CommitOnClose extends PositionOutputStream {
        private final AtomicOutput out;
        private boolean closed;

        CommitOnClose(AtomicOutput out) {
            this.out = out;
        }

        @Override
        public long getPos() {
            return out.position();
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try {
                out.commit();
            } finally {
                out.close();
            }
        }
    }

    /** A seekable stream over ranged reads, buffered in 64 KiB blocks (Avro manifests read small pieces). */
    private static final class StoreSeekableStream extends SeekableInputStream {
        private static final int BLOCK = 64 * 1024;

        private final RandomAccessInput in;
        private final byte[] buf = new byte[BLOCK];
        private long bufStart;
        private int bufLen;
        private long pos;

        StoreSeekableStream(RandomAccessInput in) {
            this.in = in;
        }

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void seek(long newPos) throws IOException {
            if (newPos < 0) {
                throw new IOException("negative seek position " + newPos);
            }
            pos = newPos;
        }

        @Override
        public int read() throws IOException {
            if (!fill()) {
                return -1;
            }
            int b = buf[(int) (pos - bufStart)] & 0xff;
            pos++;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = (int) Math.min(len, bufStart + bufLen - pos);
            System.arraycopy(buf, (int) (pos - bufStart), b, off, n);
            pos += n;
            return n;
        }

        private boolean fill() throws IOException {
            if (pos >= bufStart && pos < bufStart + bufLen) {
                return true;
            }
            long length = in.length();
            if (pos >= length) {
                return false;
            }
            bufLen = (int) Math.min(BLOCK, length - pos);
            in.readFully(pos, buf, 0, bufLen);
            bufStart = pos;
            return true;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
