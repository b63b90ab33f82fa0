package dev.ourios.table;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ourios.core.json.JsonPathException;
import dev.ourios.core.json.JsonTrees;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Manifest JSON (STORAGE.md §3). Writes compact JSON with a fixed field order
 * ({@code format, generation, files, retired, commit{at, inputs, output, rows, bytes_in, bytes_out, checksum, kind,
 * rows_removed, reason}}; a compaction's record carries neither {@code kind}, {@code rows_removed} nor {@code reason},
 * and a record without output carries neither {@code output} nor {@code checksum}), so
 * the same manifest always has the same bytes, and writes only complete commit records. Reads strictly where the
 * live set depends on it: {@code format}, {@code generation} and {@code files} are required, every field present must
 * have its type, a repeated JSON key or trailing content is an error (two {@code files} keys would make the live set
 * ambiguous). Reads tolerantly where it does not: {@code retired} and {@code commit} may be absent and so may any
 * field of {@code commit} (a manifest written by another tool or by hand), and unknown fields are ignored so a newer
 * writer's additions do not break this reader.
 */
public final class ManifestCodec {
    /*
     * A streaming parser and JsonTrees rather than an ObjectMapper: every query reads manifests, and building a
     * mapper loads about 500 of Jackson's classes, a fifth of what a short query's fresh JVM loads.
     */
    private final JsonFactory factory = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** Validates and serialises {@code m} for the object {@code manifestKey}. */
    public byte[] encode(String manifestKey, Manifest m) throws ManifestException {
        ManifestValidator.validate(manifestKey, m);
        CommitRecord c = m.commit() == null ? null : complete(manifestKey, m.commit());
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = factory.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("format", m.format());
            g.writeNumberField("generation", m.generation());
            g.writeArrayFieldStart("files");
            for (String f : m.files()) {
                g.writeString(f);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("retired");
            for (Retired r : m.retired()) {
                g.writeStartObject();
                g.writeStringField("file", r.file());
                g.writeStringField("at", instant(r.at()));
                g.writeEndObject();
            }
            g.writeEndArray();
            if (!m.main().isEmpty()) {
                g.writeArrayFieldStart("main");
                for (String f : m.main()) {
                    g.writeString(f);
                }
                g.writeEndArray();
            }
            if (!m.covers().isEmpty()) {
                // A day partition's covers (STORAGE.md §4.15); absent otherwise, so no other manifest's bytes change.
                g.writeArrayFieldStart("covers");
                for (Cover cover : m.covers()) {
                    g.writeStartObject();
                    g.writeStringField("hour", cover.hourLabel());
                    g.writeNumberField("generation", cover.generation());
                    g.writeNumberField("rows", cover.rows());
                    g.writeArrayFieldStart("names");
                    for (String name : cover.names()) {
                        g.writeString(name);
                    }
                    g.writeEndArray();
                    if (cover.services().isPresent()) {
                        // The exact rows per service (STORAGE.md §4.15), after names: a cover without them keeps
                        // the bytes it always had.
                        g.writeArrayFieldStart("services");
                        for (ServiceRows s : cover.services().get()) {
                            g.writeStartObject();
                            if (s.service().isPresent()) {
                                g.writeStringField("service", s.service().get());
                            }
                            g.writeNumberField("rows", s.rows());
                            g.writeEndObject();
                        }
                        g.writeEndArray();
                    }
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            if (c != null) {
                g.writeObjectFieldStart("commit");
                g.writeStringField("at", instant(c.at()));
                g.writeArrayFieldStart("inputs");
                for (String in : c.inputs()) {
                    g.writeString(in);
                }
                g.writeEndArray();
                if (c.outputs().size() == 1) {
                    g.writeStringField("output", c.output());
                } else if (c.outputs().size() > 1) {
                    // A band (STORAGE.md §4.14): the files in sort-key order, never beside "output".
                    g.writeArrayFieldStart("outputs");
                    for (String name : c.outputs()) {
                        g.writeString(name);
                    }
                    g.writeEndArray();
                }
                g.writeNumberField("rows", c.rows());
                g.writeNumberField("bytes_in", c.bytesIn());
                g.writeNumberField("bytes_out", c.bytesOut());
                if (c.checksum() != null) {
                    g.writeStringField("checksum", c.checksum());
                }
                if (c.kind() != CommitKind.COMPACT) {
                    // After the compaction's fields, so a compaction's manifest has the same bytes as ever.
                    g.writeStringField("kind", c.kind().label());
                    g.writeNumberField("rows_removed", c.rowsRemoved());
                    if (c.reason() != null) {
                        g.writeStringField("reason", c.reason());
                    }
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("BUG: writing JSON to memory failed", e);
        }
        return out.toByteArray();
    }

    /** Parses and validates the content of the object {@code manifestKey}. */
    public Manifest decode(String manifestKey, byte[] json) throws ManifestException {
        JsonNode root;
        try (JsonParser p = factory.createParser(json)) {
            root = p.nextToken() == null ? null : JsonTrees.readValue(p);
            if (root != null && p.nextToken() != null) {
                throw new ManifestException(manifestKey, "malformed JSON: trailing content after the manifest object");
            }
        } catch (JsonProcessingException e) {
            throw new ManifestException(manifestKey, "malformed JSON: " + e.getOriginalMessage(), e);
        } catch (JsonPathException e) {
            throw new ManifestException(manifestKey, e.getMessage(), e);
        } catch (IOException e) {
            throw new ManifestException(manifestKey, "unreadable JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new ManifestException(manifestKey, "not a JSON object");
        }
        Reader r = new Reader(manifestKey);
        long format = r.integer(root, "format", true);
        if (format != Manifest.FORMAT) {
            throw new ManifestException(manifestKey, "unsupported format " + root.get("format") + " (this build reads "
                    + Manifest.FORMAT + ")");
        }
        long generation = r.integer(root, "generation", true);
        List<String> files = r.strings(root, "files");
        List<Retired> retired = new ArrayList<>();
        JsonNode ret = root.get("retired");
        if (ret != null && !ret.isNull()) {
            if (!ret.isArray()) {
                throw new ManifestException(manifestKey, "retired must be an array");
            }
            for (JsonNode e : ret) {
                if (!e.isObject()) {
                    throw new ManifestException(manifestKey, "retired entries must be objects {file, at}");
                }
                retired.add(new Retired(r.string(e, "retired[].file"), r.instant(e, "retired[].at")));
            }
        }
        RecordedCommit commit = null;
        JsonNode c = root.get("commit");
        if (c != null && !c.isNull()) {
            if (!c.isObject()) {
                throw new ManifestException(manifestKey, "commit must be an object");
            }
            // Every commit field is optional (STORAGE.md §3: a record another tool or a person wrote may carry only
            // some); a field that is present must still have the right type.
            Optional<String> output = r.optional(c, "commit.output", r::stringValue);
            Optional<List<String>> outputs = r.optional(c, "commit.outputs", r::stringsValue);
            if (output.isPresent() && outputs.isPresent()) {
                throw new ManifestException(manifestKey, "commit has both output and outputs; a commit names its "
                        + "one output or its several");
            }
            if (outputs.isPresent() && outputs.get().size() < 2) {
                throw new ManifestException(manifestKey, "commit.outputs names " + outputs.get().size()
                        + " file(s); one output is commit.output");
            }
            commit = new RecordedCommit(r.optional(c, "commit.at", r::instantValue),
                    r.optional(c, "commit.inputs", r::stringsValue),
                    output.isPresent() ? output.map(List::of) : outputs, r.optionalCount(c, "commit.rows"),
                    r.optionalCount(c, "commit.bytes_in"), r.optionalCount(c, "commit.bytes_out"),
                    r.optional(c, "commit.checksum", r::stringValue), r.optional(c, "commit.kind", r::stringValue),
                    r.optionalCount(c, "commit.rows_removed"), r.optional(c, "commit.reason", r::stringValue));
        }
        JsonNode mainNode = root.get("main");
        List<String> main = mainNode == null || mainNode.isNull() ? List.of() : r.strings(root, "main");
        List<Cover> covers = covers(r, root.get("covers"));
        Manifest m = new Manifest((int) format, generation, files, retired, commit, main, covers);
        ManifestValidator.validate(manifestKey, m);
        return m;
    }

    /** The {@code covers} of a day manifest (STORAGE.md §4.15); empty when absent. */
    private static List<Cover> covers(Reader r, JsonNode node) throws ManifestException {
        List<Cover> out = new ArrayList<>();
        for (JsonNode e : r.objects(node, "covers", "{hour, generation, rows, names}").orElse(List.of())) {
            String hour = r.string(e, "covers[].hour");
            if (!hour.matches("[0-9]{2}") || Integer.parseInt(hour) > 23) {
                throw new ManifestException(r.manifestKey(), "'covers[].hour' must be two digits 00 to 23, got '"
                        + hour + "'");
            }
            out.add(new Cover(Integer.parseInt(hour), r.integer(e, "covers[].generation", true),
                    r.integer(e, "covers[].rows", true), r.strings(e, "covers[].names"),
                    services(r, e.get("services"))));
        }
        return out;
    }

    /** A cover's {@code services} (STORAGE.md §4.15); empty when absent (the counts are not known). */
    private static Optional<List<ServiceRows>> services(Reader r, JsonNode node) throws ManifestException {
        Optional<List<JsonNode>> entries = r.objects(node, "covers[].services", "{service, rows}");
        if (entries.isEmpty()) {
            return Optional.empty();
        }
        List<ServiceRows> out = new ArrayList<>(entries.get().size());
        for (JsonNode e : entries.get()) {
            out.add(new ServiceRows(r.optional(e, "covers[].services[].service", r::stringValue),
                    r.integer(e, "covers[].services[].rows", true)));
        }
        return Optional.of(out);
    }

    /**
     * What this build writes is always a complete record: the audit-event repair and {@code ourios verify} of a later
     * reader rely on every field of a record we wrote.
     */
    private static CommitRecord complete(String manifestKey, RecordedCommit c) throws ManifestException {
        return c.complete().orElseThrow(() -> new ManifestException(manifestKey,
                "commit record is incomplete; this build writes every commit field"));
    }

    private static String instant(Instant at) {
        return DateTimeFormatter.ISO_INSTANT.format(at);
    }

    /** A typed conversion of one present JSON value; errors name the manifest and the field. */
    @FunctionalInterface
    private interface Conversion<T> {
        T convert(JsonNode value, String path) throws ManifestException;
    }

    /**
     * Typed field access whose errors name the manifest and the field (dotted path, last segment is the key). A field
     * whose value is JSON null counts as absent, as a missing {@code retired} or {@code commit} does.
     */
    private record Reader(String manifestKey) {
        private JsonNode field(JsonNode obj, String path) throws ManifestException {
            JsonNode n = obj.get(key(path));
            if (n == null || n.isNull()) {
                throw new ManifestException(manifestKey, "required field '" + path + "' is missing");
            }
            return n;
        }

        private static String key(String path) {
            return path.substring(path.lastIndexOf('.') + 1);
        }

        <T> Optional<T> optional(JsonNode obj, String path, Conversion<T> conversion) throws ManifestException {
            JsonNode n = obj.get(key(path));
            return n == null || n.isNull() ? Optional.empty() : Optional.of(conversion.convert(n, path));
        }

        OptionalLong optionalCount(JsonNode obj, String path) throws ManifestException {
            JsonNode n = obj.get(key(path));
            return n == null || n.isNull() ? OptionalLong.empty() : OptionalLong.of(integerValue(n, path, true));
        }

        long integer(JsonNode obj, String path, boolean nonNegative) throws ManifestException {
            return integerValue(field(obj, path), path, nonNegative);
        }

        private long integerValue(JsonNode n, String path, boolean nonNegative) throws ManifestException {
            if (!n.isIntegralNumber() || !n.canConvertToLong()) {
                throw new ManifestException(manifestKey, "'" + path + "' must be an integer, got " + n);
            }
            long v = n.longValue();
            if (nonNegative && v < 0) {
                throw new ManifestException(manifestKey, "'" + path + "' must not be negative, got " + v);
            }
            return v;
        }

        String string(JsonNode obj, String path) throws ManifestException {
            return stringValue(field(obj, path), path);
        }

        private String stringValue(JsonNode n, String path) throws ManifestException {
            if (!n.isTextual()) {
                throw new ManifestException(manifestKey, "'" + path + "' must be a string, got " + n);
            }
            return n.textValue();
        }

        Instant instant(JsonNode obj, String path) throws ManifestException {
            return instantValue(field(obj, path), path);
        }

        private Instant instantValue(JsonNode n, String path) throws ManifestException {
            String s = stringValue(n, path);
            try {
                return Instant.parse(s);
            } catch (DateTimeParseException e) {
                throw new ManifestException(manifestKey, "'" + path + "' is not an ISO-8601 UTC instant: '" + s + "'");
            }
        }

        /**
         * The entries of an array of objects {@code path} ({@code node}, absent or null: empty); an error names the
         * field and the entries' {@code shape} when it is not an array or an entry is not an object.
         */
        Optional<List<JsonNode>> objects(JsonNode node, String path, String shape) throws ManifestException {
            if (node == null || node.isNull()) {
                return Optional.empty();
            }
            if (!node.isArray()) {
                throw new ManifestException(manifestKey, "'" + path + "' must be an array");
            }
            List<JsonNode> out = new ArrayList<>(node.size());
            for (JsonNode e : node) {
                if (!e.isObject()) {
                    throw new ManifestException(manifestKey, path + " entries must be objects " + shape);
                }
                out.add(e);
            }
            return Optional.of(out);
        }

        List<String> strings(JsonNode obj, String path) throws ManifestException {
            return stringsValue(field(obj, path), path);
        }

        private List<String> stringsValue(JsonNode n, String path) throws ManifestException {
            if (!n.isArray()) {
                throw new ManifestException(manifestKey, "'" + path + "' must be an array of file names");
            }
            List<String> out = new ArrayList<>(n.size());
            for (JsonNode e : n) {
                if (!e.isTextual()) {
                    throw new ManifestException(manifestKey, "'" + path + "' entries must be strings, got " + e);
                }
                out.add(e.textValue());
            }
            return out;
        }
    }
}
