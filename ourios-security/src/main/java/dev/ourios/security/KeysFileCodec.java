package dev.ourios.security;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The keys file format: one JSON object {@code {"keys":[…]}}, each key an object with {@code name},
 * {@code token_hash}, {@code tenants} (a list of tenant ids, or the string {@code "*"}), {@code scopes},
 * {@code created} and optionally {@code revoked} (RFC 3339). JSON rather than YAML: a tenant named {@code no},
 * {@code 0123} or {@code *} means exactly that string, with no implicit typing or alias syntax in the way.
 *
 * <p>Reading is strict (unknown or duplicate fields, a missing field, a wrong type, a duplicate name or token hash are
 * errors, as is anything after the object), and every error is one line naming the file, the entry
 * ({@code keys[2] 'grafana'}) and the field. A file holding only whitespace has no keys.
 */
public final class KeysFileCodec {
    private static final Set<String> TOP = Set.of("keys");
    private static final Set<String> FIELDS = Set.of("name", "token_hash", "tenants", "scopes", "created", "revoked");
    private final ObjectMapper json;

    public KeysFileCodec() {
        this.json = new ObjectMapper();
        json.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        json.enable(SerializationFeature.INDENT_OUTPUT);
    }

    /**
     * @param text  the file's content
     * @param label the file, for messages
     */
    public KeysFile decode(byte[] text, String label) {
        String s = new String(text, StandardCharsets.UTF_8);
        if (s.isBlank()) {
            return KeysFile.empty();
        }
        JsonNode root;
        try (JsonParser parser = json.createParser(s)) {
            root = json.readTree(parser);
            // One object and nothing after it: a second object or stray text is a damaged or mis-edited file.
            if (parser.nextToken() != null) {
                throw new KeysFileException(label + ": content after the JSON object (line "
                        + parser.currentTokenLocation().getLineNr() + "); the file holds one object {\"keys\":[…]}");
            }
        } catch (JsonProcessingException e) {
            String at = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
            // Jackson names the source it does not show ("[Source: REDACTED …; line: 1, …]"); keep the line only.
            String why = e.getOriginalMessage().replaceAll("\\[Source: [^;]*; ", "[");
            throw new KeysFileException(label + ": not valid JSON: " + why + at, e);
        } catch (java.io.IOException e) {
            throw new KeysFileException(label + ": cannot read: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new KeysFileException(label + ": expected a JSON object {\"keys\":[…]}");
        }
        unknownFields(root, TOP, label);
        JsonNode keys = root.get("keys");
        if (keys == null || !keys.isArray()) {
            throw new KeysFileException(label + ": keys: expected a list of keys");
        }
        List<ApiKey> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<TokenHash> hashes = new HashSet<>();
        for (int i = 0; i < keys.size(); i++) {
            JsonNode k = keys.get(i);
            String where = label + ": keys[" + i + "]";
            if (!k.isObject()) {
                throw new KeysFileException(where + ": expected an object");
            }
            JsonNode n = k.get("name");
            if (n != null && n.isTextual()) {
                where += " '" + n.asText() + "'";
            }
            unknownFields(k, FIELDS, where);
            ApiKey key = entry(k, where);
            if (!names.add(key.name())) {
                throw new KeysFileException(where + ": name: '" + key.name() + "' appears more than once");
            }
            if (!hashes.add(key.tokenHash())) {
                throw new KeysFileException(where + ": token_hash: the same hash appears in another key");
            }
            out.add(key);
        }
        return new KeysFile(out);
    }

    public byte[] encode(KeysFile file) {
        ObjectNode root = json.createObjectNode();
        ArrayNode keys = root.putArray("keys");
        for (ApiKey k : file.keys()) {
            ObjectNode o = keys.addObject();
            o.put("name", k.name());
            o.put("token_hash", k.tokenHash().text());
            if (k.tenants().any()) {
                o.put("tenants", TenantGrant.ANY);
            } else {
                ArrayNode t = o.putArray("tenants");
                k.tenants().names().forEach(t::add);
            }
            ArrayNode sc = o.putArray("scopes");
            for (Scope s : Scope.values()) {
                if (k.scopes().contains(s)) {
                    sc.add(s.wireName());
                }
            }
            o.put("created", k.created().toString());
            k.revoked().ifPresent(r -> o.put("revoked", r.toString()));
        }
        try {
            return (json.writeValueAsString(root) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("BUG: cannot encode the keys file", e);
        }
    }

    private static ApiKey entry(JsonNode k, String where) {
        String name = text(k, "name", where);
        if (!ApiKey.validName(name)) {
            throw new KeysFileException(where + ": name: " + ApiKey.nameRule(name));
        }
        TokenHash hash = TokenHash.parse(text(k, "token_hash", where)).orElseThrow(() -> new KeysFileException(
                where + ": token_hash: expected '" + TokenHash.PREFIX + "' and 64 lower-case hex digits"));
        TenantGrant tenants = tenants(k.get("tenants"), where);
        Set<Scope> scopes = scopes(k.get("scopes"), where);
        Instant created = instant(text(k, "created", where), where + ": created");
        JsonNode r = k.get("revoked");
        Optional<Instant> revoked = Optional.empty();
        if (r != null && !r.isNull()) {
            if (!r.isTextual()) {
                throw new KeysFileException(where + ": revoked: expected an RFC 3339 time or null");
            }
            revoked = Optional.of(instant(r.asText(), where + ": revoked"));
        }
        return new ApiKey(name, hash, tenants, scopes, created, revoked);
    }

    private static TenantGrant tenants(JsonNode t, String where) {
        if (t == null) {
            throw new KeysFileException(where + ": tenants: missing (a list of tenant ids, or \"*\")");
        }
        if (t.isTextual() && t.asText().equals(TenantGrant.ANY)) {
            return TenantGrant.every();
        }
        if (!t.isArray() || t.isEmpty()) {
            throw new KeysFileException(where + ": tenants: expected a non-empty list of tenant ids, or \"*\"");
        }
        Set<String> names = new LinkedHashSet<>();
        for (JsonNode e : t) {
            if (!e.isTextual() || !TenantHeader.isTenantId(e.asText())) {
                throw new KeysFileException(where + ": tenants: " + e + " is not a tenant id (a non-empty string of "
                        + "valid Unicode)");
            }
            if (e.asText().equals(TenantGrant.ANY)) {
                throw new KeysFileException(where + ": tenants: \"*\" inside a list; write \"tenants\": \"*\" for "
                        + "every tenant");
            }
            if (!names.add(e.asText())) {
                throw new KeysFileException(where + ": tenants: " + e + " appears more than once");
            }
        }
        return TenantGrant.of(List.copyOf(names));
    }

    private static Set<Scope> scopes(JsonNode s, String where) {
        if (s == null || !s.isArray() || s.isEmpty()) {
            throw new KeysFileException(where + ": scopes: expected a non-empty list of " + Scope.known());
        }
        Set<Scope> out = EnumSet.noneOf(Scope.class);
        for (JsonNode e : s) {
            Scope sc = Scope.parse(e.isTextual() ? e.asText() : "").orElseThrow(() -> new KeysFileException(
                    where + ": scopes: " + e + " is not a scope (" + Scope.known() + ")"));
            if (!out.add(sc)) {
                throw new KeysFileException(where + ": scopes: " + e + " appears more than once");
            }
        }
        return out;
    }

    private static String text(JsonNode k, String field, String where) {
        JsonNode v = k.get(field);
        if (v == null || v.isNull()) {
            throw new KeysFileException(where + ": " + field + ": missing");
        }
        if (!v.isTextual()) {
            throw new KeysFileException(where + ": " + field + ": expected a string");
        }
        return v.asText();
    }

    private static Instant instant(String v, String where) {
        try {
            return java.time.OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException e) {
            throw new KeysFileException(where + ": '" + v + "' is not an RFC 3339 time (e.g. 2026-11-01T10:00:00Z)");
        }
    }

    private static void unknownFields(JsonNode o, Set<String> known, String where) {
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            if (!known.contains(e.getKey())) {
                throw new KeysFileException(where + ": unknown field '" + e.getKey() + "' (known: "
                        + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
    }
}
