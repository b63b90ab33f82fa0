package dev.ourios.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeysFileStoreTest {
    @TempDir
    Path dir;

    @Test
    void the_file_is_written_owner_only_and_no_temporary_file_is_left() throws Exception {
        Path file = dir.resolve("etc/keys.json");
        KeysFileStore store = new KeysFileStore(file, new KeysFileCodec());
        assertEquals(KeysFile.empty(), store.read());
        store.update(f -> f.add(Keys.key("a", "token-a", List.of("acme"), Scope.QUERY)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        try (Stream<Path> s = Files.list(file.getParent())) {
            assertEquals(List.of(".keys.json.lock", "keys.json"),
                    s.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertEquals("a", store.read().keys().get(0).name());
    }

    @Test
    void a_refused_change_or_an_unreadable_file_leaves_the_file_as_it_was() throws Exception {
        Path file = dir.resolve("keys.json");
        KeysFileStore store = new KeysFileStore(file, new KeysFileCodec());
        store.update(f -> f.add(Keys.key("a", "token-a", List.of("acme"), Scope.QUERY)));
        byte[] before = Files.readAllBytes(file);
        IllegalArgumentException dup = assertThrows(IllegalArgumentException.class,
                () -> store.update(f -> f.add(Keys.key("a", "token-b", List.of("acme"), Scope.QUERY))));
        assertTrue(dup.getMessage().contains("a key named 'a' already exists"), dup.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file));

        Files.writeString(file, "{\"keys\":[1]}");
        KeysFileException bad = assertThrows(KeysFileException.class,
                () -> store.update(f -> f.add(Keys.key("b", "token-b", List.of("acme"), Scope.QUERY))));
        assertTrue(bad.getMessage().contains("keys[0]: expected an object"), bad.getMessage());
        assertEquals("{\"keys\":[1]}", Files.readString(file));
    }
}
