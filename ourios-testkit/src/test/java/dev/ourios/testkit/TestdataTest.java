package dev.ourios.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestdataTest {
    @Test
    void the_repository_copy_is_found_from_the_module_directory() {
        Path root = Testdata.root();
        assertTrue(Files.isRegularFile(root.resolve("README.md")), root.toString());
        assertTrue(Files.isRegularFile(Testdata.file("otlp", "reference-sample.jsonl")));
        assertTrue(Files.isDirectory(Testdata.dir("reference-writer")));
    }

    @Test
    void a_missing_file_throws() {
        assertThrows(IllegalStateException.class, () -> Testdata.file("otlp", "no-such-file.json"));
    }

    @Test
    void the_search_walks_up_to_a_directory_with_a_pom_and_testdata(@TempDir Path dir) throws Exception {
        Path repo = Files.createDirectories(dir.resolve("clone"));
        Files.writeString(repo.resolve("pom.xml"), "<project/>");
        Files.createDirectories(repo.resolve("testdata"));
        Path module = Files.createDirectories(repo.resolve("some-module/src"));
        assertEquals(repo.resolve("testdata"), Testdata.find(module));
        assertThrows(IllegalStateException.class, () -> Testdata.find(dir));
    }
}
