package dev.ourios.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The object store on a local directory. Publish = write a temp sibling {@code .<name>.tmp-<random>} that no
 * reader matches, fsync it, rename it over the final name, fsync the directory. Create-only publish hard-links
 * the fsynced temp file to the final name, which fails atomically if the name exists.
 *
 * <p>Every change of a directory's entries is bracketed by a change mark in its parent (docs/spec/storage.md 3.4,
 * "Change marks"): an empty {@code .ourios-mark-<random>} created just before and deleted just after, so the parent's
 * modification time changes on both sides of the change and a reader that checks the parent sees it
 * ({@link QuietListings}). Marks are never listed; a listing deletes one left an hour by a writer that died.
 */
public final class LocalObjectStore implements ObjectStore {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LocalObjectStore.class);
    /** The name prefix of change marks. */
    static final String MARK_PREFIX = ".ourios-mark-";
    /**
     * Age past which a mark's writer is taken to be dead: a mark brackets a rename, a link, an unlink or the write of a
     * manifest-sized object, never a stream of data.
     */
    static final java.time.Duration STALE_MARK_AGE = java.time.Duration.ofHours(1);

    private final Path root;
    private final SecureRandom random = new SecureRandom();

    public LocalObjectStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    /** Resolves a key under the root, refusing anything that would escape it. */
    Path resolve(String key) throws StoreException {
        if (key.startsWith("/") || key.contains("\\") || key.contains("\0")) {
            throw new StoreException("invalid key '" + key + "'");
        }
        int start = 0;
        while (start <= key.length()) { // each segment, without splitting the key into new strings
            int end = key.indexOf('/', start);
            if (end < 0) {
                end = key.length();
            }
            int length = end - start;
            if ((length == 1 || length == 2) && key.charAt(start) == '.' && key.charAt(end - 1) == '.') {
                throw new StoreException("invalid key '" + key + "': '" + key.substring(start, end) + "' segment");
            }
            start = end + 1;
        }
        // With no "." or ".." segment and no leading '/', the key names a path under the root and nothing needs
        // normalizing (the path's parsing folds repeated slashes): no check of the resolved path is needed.
        return root.resolve(key);
    }

    private static String requireDir(String dirPrefix) throws StoreException {
        if (!dirPrefix.isEmpty() && !dirPrefix.endsWith("/")) {
            throw new StoreException("listing prefix must end in '/': '" + dirPrefix + "'");
        }
        return dirPrefix;
    }

    @Override
    public List<String> listDirectories(String dirPrefix) throws IOException {
        Path dir = resolve(requireDir(dirPrefix));
        List<String> out = new ArrayList<>();
        // No stat of the directory first: a walk lists directories its parent's listing just named, and a missing one
        // or a file in its place fails the open (empty, as a store with no such prefix lists nothing).
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            java.nio.file.SecureDirectoryStream<Path> relative = ds instanceof java.nio.file.SecureDirectoryStream<Path> s
                    ? s : null; // entries stat'ed relative to the open directory, as in listObjects
            for (Path p : ds) {
                Path name = p.getFileName(); // once: each call parses the whole path again
                if (isDirectory(relative, p, name)) {
                    out.add(name.toString());
                }
            }
        } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
            return out;
        }
        out.sort(null);
        return out;
    }

    /** Whether the entry {@code p} (named {@code name}) of a directory being listed is a directory (a link is not). */
    private static boolean isDirectory(java.nio.file.SecureDirectoryStream<Path> relative, Path p, Path name)
            throws IOException {
        if (relative == null) {
            return Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
        }
        try {
            return relative.getFileAttributeView(name, java.nio.file.attribute.BasicFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).readAttributes().isDirectory();
        } catch (NoSuchFileException gone) {
            return false; // deleted between the directory read and the stat
        }
    }

    @Override
    public boolean marksChanges() {
        return true;
    }

    @Override
    public Optional<DirectoryStamp> directoryStamp(String dirPrefix) throws IOException {
        Path dir = resolve(requireDir(dirPrefix));
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        if (!a.isDirectory() || a.fileKey() == null) {
            return Optional.empty();
        }
        return Optional.of(new DirectoryStamp(a.fileKey(), a.lastModifiedTime().toInstant()));
    }

    @Override
    public List<ObjectInfo> listObjects(String dirPrefix) throws IOException {
        Path dir = resolve(requireDir(dirPrefix));
        List<ObjectInfo> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            // Each entry stat'ed relative to the open directory where the platform allows (fstatat: one path component
            // looked up, not the whole path from the root for every entry).
            java.nio.file.SecureDirectoryStream<Path> relative = ds instanceof java.nio.file.SecureDirectoryStream<Path> s
                    ? s : null;
            for (Path p : ds) {
                Path name = p.getFileName(); // once: each call parses the whole path again
                try {
                    BasicFileAttributes a = relative != null
                            ? relative.getFileAttributeView(name,
                                    java.nio.file.attribute.BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                                    .readAttributes()
                            : Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    if (a.isRegularFile()) {
                        String n = name.toString();
                        if (n.startsWith(MARK_PREFIX)) {
                            deleteIfStale(p, a);
                        } else {
                            out.add(new ObjectInfo(dirPrefix + n, a.size(), a.lastModifiedTime().toInstant()));
                        }
                    }
                } catch (NoSuchFileException gone) {
                    // deleted between the directory read and the stat: not part of this listing
                }
            }
        } catch (NoSuchFileException e) {
            return out;
        }
        out.sort((x, y) -> x.key().compareTo(y.key()));
        return out;
    }

    /**
     * One walk of the directory tree: each directory read once and each entry stat'ed once (the default composes a
     * listing of objects and one of directories per level, reading every directory twice). Symbolic links are
     * neither followed nor listed, as in {@link #listObjects} and {@link #listDirectories}; an entry deleted during
     * the walk is not part of the listing.
     */
    @Override
    public List<ObjectInfo> listTree(String dirPrefix) throws IOException {
        Path dir = resolve(requireDir(dirPrefix));
        List<ObjectInfo> out = new ArrayList<>();
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        Files.walkFileTree(dir, java.util.EnumSet.noneOf(java.nio.file.FileVisitOption.class), Integer.MAX_VALUE,
                new java.nio.file.SimpleFileVisitor<>() {
                    @Override
                    public java.nio.file.FileVisitResult visitFile(Path file, BasicFileAttributes a) {
                        if (a.isRegularFile() && !file.getFileName().toString().startsWith(MARK_PREFIX)) {
                            out.add(new ObjectInfo(treeKey(dirPrefix, dir, file), a.size(),
                                    a.lastModifiedTime().toInstant()));
                        }
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }

                    @Override
                    public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                        if (e instanceof NoSuchFileException) {
                            return java.nio.file.FileVisitResult.CONTINUE; // deleted between the read and the stat
                        }
                        throw e;
                    }
                });
        out.sort((x, y) -> x.key().compareTo(y.key()));
        return out;
    }

    /**
     * The key of {@code file}, found under {@code dir} (the directory of {@code dirPrefix}): the prefix and the path
     * below the directory, joined by '/'. Where the file system's separator is '/' (every Unix) that is the tail of
     * the path's string, which a listing of a month's days builds for thousands of files.
     */
    private static String treeKey(String dirPrefix, Path dir, Path file) {
        String path = file.toString();
        String base = dir.toString();
        if (file.getFileSystem().getSeparator().equals("/") && path.length() > base.length()
                && path.startsWith(base) && path.charAt(base.length()) == '/') {
            return dirPrefix + path.substring(base.length() + 1);
        }
        StringBuilder key = new StringBuilder(dirPrefix);
        Path relative = dir.relativize(file);
        for (int i = 0; i < relative.getNameCount(); i++) {
            key.append(i == 0 ? "" : "/").append(relative.getName(i));
        }
        return key.toString();
    }

    @Override
    public Optional<ObjectInfo> stat(String key) throws IOException {
        try {
            BasicFileAttributes a = Files.readAttributes(resolve(key), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isRegularFile() ? Optional.of(new ObjectInfo(key, a.size(), a.lastModifiedTime().toInstant()))
                    : Optional.empty();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public RandomAccessInput openRandomAccess(String key) throws IOException {
        Path p = resolve(key);
        FileChannel ch;
        try {
            ch = FileChannel.open(p, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new NoSuchObjectException("no such object: " + describe(key));
        }
        long size = ch.size();
        return new RandomAccessInput() {
            @Override
            public long length() {
                return size;
            }

            @Override
            public void readFully(long position, byte[] buffer, int offset, int len) throws IOException {
                ByteBuffer bb = ByteBuffer.wrap(buffer, offset, len);
                long pos = position;
                while (bb.hasRemaining()) {
                    int n = ch.read(bb, pos);
                    if (n < 0) {
                        throw new java.io.EOFException("unexpected end of " + describe(key) + " at byte " + pos);
                    }
                    pos += n;
                }
            }

            @Override
            public void close() throws IOException {
                ch.close();
            }
        };
    }

    @Override
    public InputStream openStream(String key) throws IOException {
        try {
            return Files.newInputStream(resolve(key));
        } catch (NoSuchFileException e) {
            throw new NoSuchObjectException("no such object: " + describe(key));
        }
    }

    @Override
    public AtomicOutput create(String key) throws IOException {
        Path target = resolve(key);
        Path temp = tempSibling(target);
        FileChannel ch;
        try (ChangeMark m = mark(target.getParent())) {
            Files.createDirectories(target.getParent());
            ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }
        return new LocalAtomicOutput(ch, temp, target, false);
    }

    @Override
    public boolean putIfAbsent(String key, byte[] content) throws IOException {
        Path target = resolve(key);
        try (ChangeMark m = mark(target.getParent())) {
            return putIfAbsent(target, content);
        }
    }

    private boolean putIfAbsent(Path target, byte[] content) throws IOException {
        Files.createDirectories(target.getParent());
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        Path temp = tempSibling(target);
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer bb = ByteBuffer.wrap(content);
            while (bb.hasRemaining()) {
                ch.write(bb);
            }
            ch.force(true);
        }
        try {
            Files.createLink(target, temp); // atomic: fails if the name exists
            fsyncDirectory(target.getParent());
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    @Override
    public void delete(String key) throws IOException {
        Path target = resolve(key);
        try (ChangeMark m = mark(target.getParent())) {
            Files.deleteIfExists(target);
        }
    }

    /**
     * Marks a change of {@code dir}'s entries about to be made, in the parent of {@code dir} or, when {@code dir} does
     * not exist yet, of its deepest existing ancestor (whose entries the change creates a directory in); nothing at
     * the store's root, whose own modification time a reader checks.
     */
    private ChangeMark mark(Path dir) throws IOException {
        Path changed = dir;
        while (changed.startsWith(root) && !changed.equals(root) && !Files.isDirectory(changed, LinkOption.NOFOLLOW_LINKS)) {
            changed = changed.getParent();
        }
        if (!changed.startsWith(root) || changed.equals(root)) {
            return ChangeMark.NONE;
        }
        Path mark = changed.getParent().resolve(MARK_PREFIX + randomHex());
        Files.createFile(mark);
        return new ChangeMark(mark);
    }

    /** A change mark, deleted when the change it brackets is made (or failed). */
    private record ChangeMark(Path path) implements AutoCloseable {
        static final ChangeMark NONE = new ChangeMark(null);

        @Override
        public void close() {
            if (path == null) {
                return;
            }
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                // The change is made: failing it now would report a published object as not published. The mark's
                // creation already moved the parent's time; a listing deletes the mark once it is stale.
                LOG.warn("could not delete change mark {}: {}", path, e.getMessage());
            }
        }
    }

    /** Deletes the mark {@code p} when its writer is surely dead (see {@link #STALE_MARK_AGE}). */
    private static void deleteIfStale(Path p, BasicFileAttributes a) {
        if (a.lastModifiedTime().toInstant().plus(STALE_MARK_AGE).isBefore(java.time.Instant.now())) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                LOG.debug("could not delete stale change mark {}: {}", p, e.getMessage());
            }
        }
    }

    @Override
    public String describe(String key) {
        return root.resolve(key).toString();
    }

    @Override
    public String toString() {
        return "local store at " + root;
    }

    private Path tempSibling(Path target) {
        return target.resolveSibling("." + target.getFileName() + ".tmp-" + randomHex());
    }

    /** Twelve random hex digits: a temp sibling's or a mark's own name, unlike any other writer's. */
    private String randomHex() {
        byte[] r = new byte[6];
        random.nextBytes(r);
        return HexFormat.of().formatHex(r);
    }

    static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some file systems refuse to open directories for sync; the rename is still atomic there.
        }
    }

    private final class LocalAtomicOutput extends AtomicOutput {
        private final FileChannel channel;
        private final Path temp;
        private final Path target;
        private final OutputStream stream;
        private long position;
        private boolean done;

        LocalAtomicOutput(FileChannel channel, Path temp, Path target, boolean unused) {
            this.channel = channel;
            this.temp = temp;
            this.target = target;
            this.stream = new java.io.BufferedOutputStream(java.nio.channels.Channels.newOutputStream(channel), 1 << 16);
        }

        @Override
        public void write(int b) throws IOException {
            stream.write(b);
            position++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            stream.write(b, off, len);
            position += len;
        }

        @Override
        public void flush() throws IOException {
            stream.flush();
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public void commit() throws IOException {
            if (done) {
                throw new IllegalStateException("already committed or aborted: " + target);
            }
            try {
                stream.flush();
                channel.force(true);
                channel.close();
                try (ChangeMark m = mark(target.getParent())) {
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    fsyncDirectory(target.getParent());
                }
                done = true;
            } catch (IOException e) {
                abort();
                throw new StoreException("could not publish " + target + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void abort() {
            if (done) {
                return;
            }
            done = true;
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing a channel we are discarding
            }
            try (ChangeMark m = mark(temp.getParent())) {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // GC removes temp files older than the grace period
            }
        }
    }
}
