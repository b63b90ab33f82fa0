package dev.ourios.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalObjectStoreContractTest extends ObjectStoreContractTest {
    @TempDir
    Path dir;

    @Override
    protected ObjectStore newStore() {
        return new LocalObjectStore(dir);
    }

    /**
     * The one-walk tree listing lists exactly the regular files under the prefix, at their keys with their sizes,
     * sorted, over random trees (nested directories, names that are prefixes of each other, temp siblings, empty
     * directories, symbolic links that are neither followed nor listed).
     */
    @Test
    void treeListingIsEveryRegularFileUnderThePrefix() throws IOException {
        long seed = new Random().nextLong();
        System.out.println("treeListingIsEveryRegularFileUnderThePrefix seed=" + seed);
        Random r = new Random(seed);
        for (int round = 0; round < 20; round++) {
            String base = "t" + round + "/";
            TreeMap<String, Long> model = new TreeMap<>();
            List<String> dirs = new ArrayList<>(List.of(""));
            for (int i = 0; i < 40; i++) {
                String parent = dirs.get(r.nextInt(dirs.size()));
                String name = List.of("hour=0", "hour=01", "rollup", "day=1", "day=11", "x")
                        .get(r.nextInt(6)) + (r.nextBoolean() ? "" : Integer.toString(r.nextInt(3)));
                switch (r.nextInt(4)) {
                    case 0 -> {
                        Files.createDirectories(dir.resolve(base + parent + name));
                        if (!dirs.contains(parent + name + "/")) {
                            dirs.add(parent + name + "/");
                        }
                    }
                    case 1 -> {
                        Path tmp = dir.resolve(base + parent + "." + name + ".tmp-" + i);
                        Files.createDirectories(tmp.getParent());
                        Files.write(tmp, new byte[i]);
                        model.put(base + parent + "." + name + ".tmp-" + i, (long) i);
                    }
                    default -> {
                        String key = base + parent + name + "-" + i + ".parquet";
                        store().put(key, new byte[r.nextInt(50)]);
                        model.put(key, store().stat(key).orElseThrow().size());
                    }
                }
            }
            Files.createDirectories(dir.resolve(base + "linked"));
            Files.createSymbolicLink(dir.resolve(base + "linked/dir"), dir.resolve(base));
            Files.createSymbolicLink(dir.resolve(base + "linked/file"), dir.resolve(model.isEmpty() ? base
                    : model.firstKey()));
            for (String prefix : dirs) {
                String listed = base + prefix;
                TreeMap<String, Long> expected = new TreeMap<>(model.subMap(listed, listed + Character.MAX_VALUE));
                TreeMap<String, Long> actual = new TreeMap<>();
                List<String> keys = new ArrayList<>();
                for (ObjectInfo o : store().listTree(listed)) {
                    actual.put(o.key(), o.size());
                    keys.add(o.key());
                }
                assertEquals(expected, actual, "seed " + seed + ", listing " + listed);
                assertEquals(new ArrayList<>(expected.keySet()), keys, "seed " + seed + ": sorted by key");
            }
        }
    }
}
