package dev.ourios.table;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ourios.core.json.JsonPathException;
import dev.ourios.core.json.JsonTrees;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the reference implementation's {@code manifest.json} (STORAGE.md §3.6):
 * {@code {"generation":N,"files":[...]}}. Strict where the live set depends on it, as {@link ManifestCodec} is:
 * both fields are required and typed, a repeated key or trailing content is an error, every name is one path
 * component ending in {@code .parquet} and appears once. Unknown fields are ignored. Every problem is one
 * {@link ManifestException} naming the object; nothing is repaired.
 */
public final class ReferenceManifestCodec {
    private final JsonFactory factory = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** Parses and checks the content of the object {@code key}. */
    public ReferenceManifest decode(String key, byte[] json) throws ManifestException {
        JsonNode root;
        try (JsonParser p = factory.createParser(json)) {
            root = p.nextToken() == null ? null : JsonTrees.readValue(p);
            if (root != null && p.nextToken() != null) {
                throw new ManifestException(key, "malformed JSON: trailing content after the manifest object");
            }
        } catch (JsonProcessingException e) {
            throw new ManifestException(key, "malformed JSON: " + e.getOriginalMessage(), e);
        } catch (JsonPathException e) {
            throw new ManifestException(key, e.getMessage(), e);
        } catch (IOException e) {
            throw new ManifestException(key, "unreadable JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new ManifestException(key, "not a JSON object");
        }
        return new ReferenceManifest(generation(key, root.get("generation")), files(key, root.get("files")));
    }

    private static long generation(String key, JsonNode n) throws ManifestException {
        if (n == null) {
            throw new ManifestException(key, "'generation' is missing");
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            throw new ManifestException(key, "'generation' must be an integer, got " + kind(n));
        }
        long g = n.longValue();
        // Our first commit here is generation g + 1, which must be a generation too.
        if (g < 0 || g == Long.MAX_VALUE) {
            throw new ManifestException(key, "'generation' must be at least 0 and below " + Long.MAX_VALUE
                    + ", got " + g);
        }
        return g;
    }

    private static List<String> files(String key, JsonNode n) throws ManifestException {
        if (n == null) {
            throw new ManifestException(key, "'files' is missing");
        }
        if (!n.isArray()) {
            throw new ManifestException(key, "'files' must be an array of file names, got " + kind(n));
        }
        List<String> out = new ArrayList<>(n.size());
        Set<String> seen = new HashSet<>();
        for (JsonNode e : n) {
            if (!e.isTextual()) {
                throw new ManifestException(key, "'files' entries must be strings, got " + kind(e));
            }
            String name = e.textValue();
            String problem = ManifestValidator.nameProblem(name);
            if (problem != null) {
                throw new ManifestException(key, "files: " + problem);
            }
            if (!seen.add(name)) {
                throw new ManifestException(key, "'" + name + "' appears more than once in files");
            }
            out.add(name);
        }
        return out;
    }

    /** The JSON type of a value, never the value itself, so a message stays short whatever the input holds. */
    private static String kind(JsonNode n) {
        return switch (n.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT, POJO -> "an object";
            case STRING, BINARY -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL, MISSING -> "null";
        };
    }
}
