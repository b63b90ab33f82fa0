package dev.ourios.ingest.quarantine;

import dev.ourios.ingest.wal.Segment;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The quarantine of a write-ahead log: {@code <wal dir>/quarantine/}, holding whole segments whose flush failed for
 * a reason a retry will not fix, each beside a {@code <segment>.reason} file of one line. A segment is moved there
 * (a rename on the same file system: never copied, never deleted), so nothing acknowledged is lost; an operator
 * lists it and replays it once the cause is fixed ({@code ourios wal quarantine}).
 */
public final class SegmentQuarantine {
    public static final String DIRECTORY = "quarantine";
    static final String REASON = ".reason";
    private static final int MAX_REASON = 300;

    private final Path dir;

    public SegmentQuarantine(Path walDir) {
        this.dir = walDir.resolve(DIRECTORY);
    }

    public Path directory() {
        return dir;
    }

    /** One quarantined segment: where it is, its size and why it was moved aside. */
    public record Entry(Segment segment, long bytes, String reason) {
    }

    /** Moves the segment in (durably: the reason first, then the rename, then both directories synced). */
    public Path moveIn(Segment segment, Throwable why) throws IOException {
        Files.createDirectories(dir);
        Path target = dir.resolve(segment.path().getFileName());
        Files.writeString(dir.resolve(segment.path().getFileName() + REASON), reason(why) + "\n",
                StandardCharsets.UTF_8);
        Files.move(segment.path(), target, StandardCopyOption.ATOMIC_MOVE);
        fsync(dir);
        fsync(segment.path().getParent());
        return target;
    }

    /** The quarantined segments, oldest first. */
    public List<Entry> list() throws IOException {
        List<Entry> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.wal")) {
            for (Path p : ds) {
                Optional<Segment> s = Segment.parse(p);
                if (s.isPresent()) {
                    Path reasonFile = dir.resolve(p.getFileName() + REASON);
                    String reason = Files.exists(reasonFile)
                            ? Files.readString(reasonFile, StandardCharsets.UTF_8).strip() : "(no reason recorded)";
                    out.add(new Entry(s.get(), Files.size(p), reason));
                }
            }
        }
        out.sort((a, b) -> Long.compare(a.segment().sequence(), b.segment().sequence()));
        return out;
    }

    /** Deletes a segment whose records a replay has published. */
    public void release(Entry e) throws IOException {
        Files.deleteIfExists(e.segment().path());
        Files.deleteIfExists(dir.resolve(e.segment().path().getFileName() + REASON));
        fsync(dir);
    }

    /** One bounded line: the failure's kind and the start of its message (no stack, no library internals). */
    public static String reason(Throwable why) {
        String msg = why.getMessage() == null ? "" : why.getMessage().replaceAll("\\s+", " ");
        if (why instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
            // The reason first: the path may be long (a long tenant id is the usual cause).
            msg = fs.getReason() + (fs.getFile() == null ? "" : " (" + fs.getFile() + ")");
        }
        String line = why.getClass().getSimpleName() + (msg.isEmpty() ? "" : ": " + msg);
        return line.length() <= MAX_REASON ? line : line.substring(0, MAX_REASON) + "...";
    }

    private static void fsync(Path d) {
        try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some file systems refuse to open directories for sync.
        }
    }
}
