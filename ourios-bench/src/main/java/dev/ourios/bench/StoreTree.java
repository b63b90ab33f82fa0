package dev.ourios.bench;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/** Whole-directory copies of a store on local disk, for runs that change the store they are given. */
final class StoreTree {
    private StoreTree() {
    }

    /**
     * Copies every file under {@code from} except {@code skip} (a marker) into a fresh {@code to}, and forces each
     * copy to disk, so the writeback of the copy does not run during the timed command that follows.
     */
    static void copy(Path from, Path to, String skip) throws IOException {
        Fixtures.deleteTree(to);
        Files.createDirectories(to);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(from)) {
            files = walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals(skip)).toList();
        }
        for (Path f : files) {
            Path dst = to.resolve(from.relativize(f).toString());
            Files.createDirectories(dst.getParent());
            Files.copy(f, dst);
            try (FileChannel ch = FileChannel.open(dst, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
        }
    }
}
