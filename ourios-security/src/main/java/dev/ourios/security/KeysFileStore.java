package dev.ourios.security;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Reads and changes a keys file the way {@code ourios keys} does. A change holds an exclusive lock on a sibling
 * lock file ({@code .<name>.lock}) from the read to the rename, so two processes changing the file at once both get
 * their change in. The new content goes to a temporary sibling created with mode 0600, is fsynced and renamed over
 * the file, and the directory is fsynced: a reader (the server's {@link KeyRing}) sees the old file or the new one,
 * never part of one, and a crash leaves one of the two.
 *
 * <p>Within one JVM, call it from one thread at a time: the file lock guards processes, not threads.
 */
public final class KeysFileStore {
    private final Path file;
    private final KeysFileCodec codec;

    public KeysFileStore(Path file, KeysFileCodec codec) {
        this.file = Objects.requireNonNull(file, "file").toAbsolutePath();
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    public Path file() {
        return file;
    }

    /** The keys; a file that does not exist has none. */
    public KeysFile read() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return KeysFile.empty();
        } catch (IOException e) {
            throw new KeysFileException(file + ": cannot read the keys file: " + e.getMessage(), e);
        }
        return codec.decode(bytes, file.toString());
    }

    /**
     * Applies {@code change} to the current keys and writes the result, under the lock. A file that does not read
     * is left as it is (the change is refused with its error), as is the file when {@code change} throws.
     *
     * @return the keys written
     */
    public KeysFile update(UnaryOperator<KeysFile> change) {
        Path dir = file.getParent();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new KeysFileException(file + ": cannot create the directory: " + e.getMessage(), e);
        }
        Path lockFile = dir.resolve("." + file.getFileName() + ".lock");
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = ch.lock()) {
            KeysFile next = change.apply(read());
            write(codec.encode(next));
            return next;
        } catch (IOException e) {
            throw new KeysFileException(file + ": cannot write the keys file: " + e.getMessage(), e);
        }
    }

    private void write(byte[] bytes) throws IOException {
        Path dir = file.getParent();
        Path tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp", ownerOnly());
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true); // the rename itself survives a crash
        } catch (IOException e) {
            // Some platforms cannot open a directory for fsync; the rename is still atomic there.
        }
    }

    private static FileAttribute<?>[] ownerOnly() {
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rw-------"))};
        }
        return new FileAttribute<?>[0];
    }
}
