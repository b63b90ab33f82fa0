package dev.ourios.table;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Manifest JSON (STORAGE.md §3). Writes compact JSON with a fixed field order
 * ({@code format, generation, files, retired, commit{at, inputs, output, rows, bytes_in, bytes_out, checksum}}), so
 * the same manifest always has the same bytes. Reads strictly: required fields and types are checked, a repeated
 * JSON key or trailing content is an error (two {@code files} keys would make the live set ambiguous), unknown
 * fields are tolerated so a newer writer's additions do not break this reader.
 */
public final class ManifestCodec {
    private final ObjectMapper mapper = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private final JsonFactory factory = mapper.getFactory();

    /** Validates and serialises {@code m} for the object {@code manifestKey}. */
    public byte[] encode(String manifestKey, Manifest m) throws ManifestException {
        ManifestValidator.validate(manifestKey, m);
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
            if (m.commit() != null) {
                CommitRecord c = m.commit();
                g.writeObjectFieldStart("commit");
                g.writeStringField("at", instant(c.at()));
                g.writeArrayFieldStart("inputs");
                for (String in : c.inputs()) {
                    g.writeString(in);
                }
                g.writeEndArray();
                g.writeStringField("output", c.output());
                g.writeNumberField("rows", c.rows());
                g.writeNumberField("bytes_in", c.bytesIn());
                g.writeNumberField("bytes_out", c.bytesOut());
                g.writeStringField("checksum", c.checksum());
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
        try {
            root = mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ManifestException(manifestKey, "malformed JSON: " + e.getOriginalMessage(), e);
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
        CommitRecord commit = null;
        JsonNode c = root.get("commit");
        if (c != null && !c.isNull()) {
            if (!c.isObject()) {
                throw new ManifestException(manifestKey, "commit must be an object");
            }
            commit = new CommitRecord(r.instant(c, "commit.at"), r.strings(c, "commit.inputs"),
                    r.string(c, "commit.output"), r.integer(c, "commit.rows", true),
                    r.integer(c, "commit.bytes_in", true), r.integer(c, "commit.bytes_out", true),
                    r.string(c, "commit.checksum"));
        }
        Manifest m = new Manifest((int) format, generation, files, retired, commit);
        ManifestValidator.validate(manifestKey, m);
        return m;
    }

    private static String instant(Instant at) {
        return DateTimeFormatter.ISO_INSTANT.format(at);
    }

    /** Typed field access whose errors name the manifest and the field (dotted path, last segment is the key). */
    private record Reader(String manifestKey) {
        private JsonNode field(JsonNode obj, String path) throws ManifestException {
            String name = path.substring(path.lastIndexOf('.') + 1);
            JsonNode n = obj.get(name);
            if (n == null || n.isNull()) {
                throw new ManifestException(manifestKey, "required field '" + path + "' is missing");
            }
            return n;
        }

        long integer(JsonNode obj, String path, boolean nonNegative) throws ManifestException {
            JsonNode n = field(obj, path);
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
            JsonNode n = field(obj, path);
            if (!n.isTextual()) {
                throw new ManifestException(manifestKey, "'" + path + "' must be a string, got " + n);
            }
            return n.textValue();
        }

        Instant instant(JsonNode obj, String path) throws ManifestException {
            String s = string(obj, path);
            try {
                return Instant.parse(s);
            } catch (DateTimeParseException e) {
                throw new ManifestException(manifestKey, "'" + path + "' is not an ISO-8601 UTC instant: '" + s + "'");
            }
        }

        List<String> strings(JsonNode obj, String path) throws ManifestException {
            JsonNode n = field(obj, path);
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
