package dev.ourios.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The settings tables of docs/spec/cli.md and docs/operations.md say what the registry ({@link ConfigKeys}) says:
 * every key once, with its variable, its {@code serve} flag and its default; the {@code ourios compact} flag table
 * gives the same defaults. A setting changed in one place and not the other fails here.
 */
class SettingsDocsTest {
    /** The registry as the docs write it: the scratch directory under {@code <java.io.tmpdir>}. */
    private final ConfigKeys keys = ConfigKeys.withTempDir("<java.io.tmpdir>");

    @Test
    void the_configuration_table_of_the_cli_contract_is_the_registry() throws IOException {
        checkSettingsTable(doc("spec/cli.md"), "docs/spec/cli.md");
    }

    @Test
    void the_configuration_table_of_the_operations_guide_is_the_registry() throws IOException {
        checkSettingsTable(doc("operations.md"), "docs/operations.md");
    }

    @Test
    void the_compact_flag_table_gives_the_registry_defaults() throws IOException {
        List<List<String>> rows = table(section(doc("spec/cli.md"), "### `ourios compact`"), "| flag | default |");
        Map<String, String> defaults = new HashMap<>();
        for (List<String> row : rows) {
            defaults.put(row.get(0).replace("`", "").split(" ")[0], row.get(1));
        }
        int checked = 0;
        for (ConfigKey k : keys.all()) {
            if (!k.section().equals("compaction") || k.flag().isEmpty()) {
                continue;
            }
            String flag = k.flag().get();
            assertTrue(defaults.containsKey(flag), flag + " is in the table of ourios compact");
            if (k.defaultValue().isPresent()) {
                String cell = defaults.get(flag);
                assertTrue(cell.startsWith("`" + k.defaultValue().get() + "`"),
                        "ourios compact " + flag + ": the doc says " + cell + ", the registry `"
                                + k.defaultValue().get() + "`");
                checked++;
            }
        }
        assertTrue(checked >= 10, "the compaction flags with a default were found: " + checked);
    }

    @Test
    void a_table_row_that_disagrees_with_the_registry_is_caught() {
        ConfigKey grace = keys.get(ConfigKeys.GRACE);
        List<String> right = List.of("`compaction.grace`", "`OURIOS_COMPACTION_GRACE`", "`--grace`", "`15m`", "");
        assertEquals(List.of(), disagreements(grace, right));
        assertEquals(1, disagreements(grace, List.of(right.get(0), right.get(1), right.get(2), "`20m`", "")).size());
        assertEquals(1, disagreements(grace, List.of(right.get(0), "`OURIOS_GRACE`", right.get(2), right.get(3), ""))
                .size());
        assertEquals(1, disagreements(grace, List.of(right.get(0), right.get(1), "", right.get(3), "")).size());
        ConfigKey rg = keys.get(ConfigKeys.ROW_GROUP_BYTES);
        assertEquals(1, disagreements(rg, List.of("`compaction.row_group_bytes`", "`OURIOS_COMPACTED_RG_BYTES`",
                "`--row-group-bytes`", "`8MiB`", "")).size(), "a default the registry does not have");
    }

    private void checkSettingsTable(String text, String where) {
        List<List<String>> rows = table(text, "| key | variable |");
        Map<String, Integer> seen = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (List<String> row : rows) {
            String name = row.get(0).replace("`", "");
            if (name.startsWith(ConfigKeys.RETENTION_TENANTS + ".")) {
                assertTrue(keys.isMapSection(ConfigKeys.RETENTION_TENANTS), name);
                continue;
            }
            var key = keys.find(name);
            if (key.isEmpty()) {
                problems.add(name + ": in " + where + " but not a key of the registry");
                continue;
            }
            seen.merge(name, 1, Integer::sum);
            problems.addAll(disagreements(key.get(), row));
        }
        for (ConfigKey k : keys.all()) {
            if (seen.getOrDefault(k.name(), 0) != 1) {
                problems.add(k.name() + ": " + seen.getOrDefault(k.name(), 0) + " rows in " + where + ", not 1");
            }
        }
        assertEquals(List.of(), problems, where);
    }

    /** What one row (key, variable, flag, default, meaning) gets wrong about {@code k}. */
    private static List<String> disagreements(ConfigKey k, List<String> row) {
        List<String> out = new ArrayList<>();
        if (!row.get(1).equals("`" + k.env() + "`")) {
            out.add(k.name() + ": variable " + row.get(1) + ", the registry `" + k.env() + "`");
        }
        String flag = k.flag().map(f -> "`" + f + "`").orElse("");
        if (!row.get(2).equals(flag)) {
            out.add(k.name() + ": flag '" + row.get(2) + "', the registry '" + flag + "'");
        }
        String cell = row.get(3);
        if (k.defaultValue().isPresent() ? !cell.startsWith("`" + k.defaultValue().get() + "`")
                : !cell.startsWith("unset")) {
            out.add(k.name() + ": default '" + cell + "', the registry "
                    + k.defaultValue().map(d -> "`" + d + "`").orElse("unset"));
        }
        return out;
    }

    /** The cells of the table whose header row starts with {@code header}, header and rule excluded. */
    private static List<List<String>> table(String text, String header) {
        List<String> lines = text.lines().toList();
        int start = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(header)) {
                start = i;
                break;
            }
        }
        assertTrue(start >= 0, "a table headed '" + header + "'");
        List<List<String>> rows = new ArrayList<>();
        for (int i = start + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            List<String> cells = new ArrayList<>();
            for (String c : lines.get(i).substring(1).split(" \\|", -1)) {
                cells.add(c.strip());
            }
            rows.add(cells);
        }
        assertFalse(rows.isEmpty(), "rows under '" + header + "'");
        return rows;
    }

    private static String section(String text, String heading) {
        int at = text.indexOf(heading);
        assertTrue(at >= 0, heading);
        int next = text.indexOf("\n### ", at + heading.length());
        return text.substring(at, next < 0 ? text.length() : next);
    }

    private static String doc(String relative) throws IOException {
        Path docs = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().resolveSibling("docs");
        return Files.readString(docs.resolve(relative));
    }
}
