package dev.ourios.parquet.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.TestFiles;
import dev.ourios.store.LocalObjectStore;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An independent reader (DuckDB) agrees with what we wrote (a compacted file, token index included). */
class DuckDbTest {
    @TempDir
    Path dir;

    @Test
    void duckDbReadsOurFile() throws Exception {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        List<LogRecord> rows = new ArrayList<>(TestFiles.edgeRecords());
        for (int i = 0; i < 1500; i++) {
            rows.add(TestFiles.random(rnd, "svc-" + rnd.nextInt(3)));
        }
        var store = new LocalObjectStore(dir);
        TestFiles.write(store, "d.parquet", WriterOptions.compacted(1 << 20).withRowGroupRows(400), rows);
        // A compacted file carries the token index between its indexes and its footer: other engines read it unaffected.
        try (var r = org.apache.parquet.hadoop.ParquetFileReader.open(
                new org.apache.parquet.io.LocalInputFile(dir.resolve("d.parquet")))) {
            assertTrue(r.getFooter().getFileMetaData().getKeyValueMetaData()
                    .containsKey(dev.ourios.parquet.index.TokenIndexRegion.KEY));
        }
        Properties p = new Properties();
        p.setProperty("autoinstall_known_extensions", "false");
        p.setProperty("autoload_known_extensions", "false");
        try (var c = DriverManager.getConnection("jdbc:duckdb:", p);
                var st = c.prepareStatement("SELECT file_row_number, tenant_id, CAST(template_id AS VARCHAR),"
                        + " epoch_ns(time_unix_nano), \"resource.service.name\", body, len(params), len(separators),"
                        + " severity_number, lossy_flag FROM read_parquet(?, file_row_number=true)"
                        + " ORDER BY file_row_number")) {
            st.setString(1, dir.resolve("d.parquet").toString());
            try (var rs = st.executeQuery()) {
                int n = 0;
                while (rs.next()) {
                    LogRecord r = rows.get(n);
                    String msg = "row " + n + " seed " + seed;
                    assertEquals(n, rs.getLong(1), msg);
                    assertEquals(r.tenantId(), rs.getString(2), msg);
                    // INT(64, signed) (storage.md, section 2.1): engines see the id's bits as a signed number.
                    assertEquals(Long.toString(r.templateId()), rs.getString(3), msg);
                    assertEquals(r.timeUnixNano(), rs.getLong(4), msg);
                    assertEquals(r.serviceName(), rs.getString(5), msg);
                    assertArrayEquals(r.body(), rs.getBytes(6), msg);
                    assertEquals(r.params().size(), rs.getInt(7), msg);
                    assertEquals(r.separators().size(), rs.getInt(8), msg);
                    assertEquals(r.severityNumber(), rs.getInt(9), msg);
                    assertEquals(r.lossyFlag(), rs.getBoolean(10), msg);
                    n++;
                }
                assertEquals(rows.size(), n, "seed " + seed);
            }
            try (var s2 = c.createStatement(); var rs = s2.executeQuery("SELECT count(*) FROM read_parquet('"
                    + dir.resolve("d.parquet") + "') WHERE \"resource.service.name\" = 'svc-1'")) {
                assertTrue(rs.next());
                assertEquals(rows.stream().filter(r -> "svc-1".equals(r.serviceName())).count(), rs.getLong(1));
            }
        }
    }
}
