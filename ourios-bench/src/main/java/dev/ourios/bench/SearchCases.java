package dev.ourios.bench;

import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.core.LineText;
import dev.ourios.query.Query;
import dev.ourios.core.RowCondition;
import dev.ourios.query.search.QuerySyntaxException;
import dev.ourios.query.search.SearchQuery;
import dev.ourios.query.search.Tokenizer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The search cases of the query-duckdb suite (docs/spec/query.md): a word in about one row in a million, a word in
 * about one row in ten, an attribute equality and a numeric attribute range, each as our search and as DuckDB's SQL
 * twin over the same files. The terms are taken from a sample of the live file's rows: the rarest word (one row of the
 * sample), the word whose share of the sample's rows is closest to a tenth, the probe row's first string attribute,
 * and the value of an integer attribute that about 1% of the sample's rows reach.
 *
 * <p>DuckDB's line is the body, or the separators and parameters joined (as {@code --contains} defines it), and a
 * word is matched case-insensitively between non-word characters by {@code regexp_matches}; words are chosen among
 * ASCII letters, digits and '_' so that its notion of a word boundary is ours.
 */
final class SearchCases {
    /** DuckDB's log line of a row: the body, else {@code sep0 + param0 + … + sepN}. */
    static final String LINE_SQL = "coalesce(decode(body), array_to_string(list_transform(range(len(separators)),"
            + " lambda i: decode(separators[i + 1]) || coalesce(decode(params[i + 1].value), '')), ''))";
    private static final Pattern ASCII_WORD = Pattern.compile("[a-z][a-z0-9_]{3,}");
    private static final int SAMPLE = 200_000;

    private SearchCases() {
    }

    /** One search case: ours as a search (and the same search with the index switched off), DuckDB's WHERE. */
    record Case(String name, Query indexed, Query scanned, String where) {
    }

    /** Words (and the rows holding each) and integer attribute values of a file's first rows. */
    private record Sample(Map<String, Integer> rowsWithWord, Map<String, List<Long>> ints, long rows) {
    }

    private static Sample sample(dev.ourios.store.ObjectStore store, String key) throws IOException {
        Map<String, Integer> rowsWithWord = new HashMap<>();
        Map<String, List<Long>> ints = new TreeMap<>();
        long sampled = 0;
        try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all())) {
            for (LogRecord row = r.read(); row != null && sampled < SAMPLE; row = r.read(), sampled++) {
                byte[] line = LineText.of(row);
                if (line != null) {
                    for (String t : new java.util.HashSet<>(Tokenizer.tokens(new String(line,
                            StandardCharsets.UTF_8)))) {
                        if (ASCII_WORD.matcher(t).matches()) {
                            rowsWithWord.merge(t, 1, Integer::sum);
                        }
                    }
                }
                for (KeyValue kv : AttributesJson.decode(row.attributes())) {
                    if (kv.value() instanceof AnyValue.IntValue i && ints.size() < 64) {
                        ints.computeIfAbsent(kv.key(), k -> new ArrayList<>()).add(i.value());
                    }
                }
            }
        }
        return new Sample(rowsWithWord, ints, sampled);
    }

    /**
     * The word held by the fewest of the file's first rows (ties: the first in word order); empty when they hold
     * none.
     */
    static java.util.Optional<String> rareWord(dev.ourios.store.ObjectStore store, String key) throws IOException {
        return new TreeMap<>(sample(store, key).rowsWithWord()).entrySet().stream()
                .min(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
    }

    /** DuckDB's twin of a search for {@code word}: the word in the line, case-insensitive, between non-word bytes. */
    static String wordWhere(String word) {
        return "regexp_matches(" + LINE_SQL + ", '(?i)(^|[^a-z0-9_])" + word + "([^a-z0-9_]|$)')";
    }

    static List<Case> of(Fixture live, Query tenant, LogRecord probe) throws IOException, QuerySyntaxException {
        Sample sample = sample(live.store(), live.inputs().get(0).key());
        Map<String, Integer> rowsWithWord = sample.rowsWithWord();
        Map<String, List<Long>> ints = sample.ints();
        long sampled = sample.rows();
        String rare = null;
        String tenth = null;
        double bestTenth = Double.MAX_VALUE;
        for (Map.Entry<String, Integer> e : new TreeMap<>(rowsWithWord).entrySet()) {
            if (e.getValue() == 1 && rare == null) {
                rare = e.getKey();
            }
            double gap = Math.abs((double) e.getValue() / sampled - 0.1);
            if (gap < bestTenth) {
                bestTenth = gap;
                tenth = e.getKey();
            }
        }
        if (rare == null || tenth == null) {
            throw new IllegalStateException("no words to search for in " + live.describe());
        }
        List<Case> out = new ArrayList<>();
        out.add(word("word in ~1 row per million (" + rare + ")", tenant, rare));
        out.add(word("word in ~1 row in 10 (" + tenth + ")", tenant, tenth));
        KeyValue attr = AttributesJson.decode(probe.attributes()).stream()
                .filter(kv -> kv.value() instanceof AnyValue.StringValue s && !s.value().contains("\"")
                        && !s.value().contains("\\") && !s.value().contains("'"))
                .findFirst().orElseThrow(() -> new IllegalStateException("the probe row has no string attribute"));
        String value = ((AnyValue.StringValue) attr.value()).value();
        SearchQuery eq = SearchQuery.parse("attributes." + attr.key() + ":\"" + value + "\"");
        out.add(new Case("attribute equality (" + attr.key() + ")", eq.applyTo(tenant), scanned(eq.applyTo(tenant)),
                "json_contains(attributes, '{\"key\":\"" + attr.key() + "\",\"value\":{\"stringValue\":\"" + value
                        + "\"}}')"));
        Map.Entry<String, List<Long>> numeric = ints.entrySet().stream().max((a, b) -> a.getValue().size()
                - b.getValue().size()).orElseThrow(() -> new IllegalStateException("no integer attribute"));
        List<Long> values = new ArrayList<>(numeric.getValue());
        values.sort(null);
        long low = values.get((int) (values.size() * 0.99));
        SearchQuery range = SearchQuery.parse("attributes." + numeric.getKey() + ":>=" + low);
        out.add(new Case("numeric attribute range (" + numeric.getKey() + " >= " + low + ")", range.applyTo(tenant),
                scanned(range.applyTo(tenant)), "EXISTS (SELECT 1 FROM (SELECT unnest(CAST(json_extract(attributes,"
                        + " '$[*]') AS JSON[])) AS kv) WHERE json_extract_string(kv, '$.key') = '" + numeric.getKey()
                        + "' AND TRY_CAST(json_extract_string(kv, '$.value.intValue') AS BIGINT) >= " + low + ")"));
        return out;
    }

    private static Case word(String name, Query tenant, String word) throws QuerySyntaxException {
        Query q = SearchQuery.parse(word).applyTo(tenant);
        return new Case(name, q, scanned(q), wordWhere(word));
    }

    /**
     * The same query with the token index switched off: its search decides rows on the same columns, every row group
     * is read.
     */
    static Query scanned(Query q) {
        if (q.condition().isEmpty()) {
            return q;
        }
        RowCondition inner = q.condition().get();
        return q.condition(new RowCondition() {
            @Override
            public boolean test(LogRecord row) {
                return inner.test(row);
            }

            @Override
            public String text() {
                return inner.text();
            }

            @Override
            public java.util.Optional<java.util.Set<String>> columns() {
                return inner.columns(); // decided on its columns as the search is: only the index is off
            }
        });
    }
}
