package dev.ourios.cli.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Resolves every key: the flag if given, else its {@code OURIOS_*} variable if set and not blank, else the YAML
 * file, else the default. The file is read strictly: unknown keys, lists, and a value where a section belongs are
 * errors naming the key, so a typo never silently falls back to a default.
 */
public final class ConfigLoader {
    private final ConfigKeys keys;
    private final Map<String, String> env;
    private final ObjectMapper yaml;

    /** @param env the process environment ({@code System.getenv()}), injected so tests can pass their own */
    public ConfigLoader(ConfigKeys keys, Map<String, String> env) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.env = Map.copyOf(env);
        this.yaml = new ObjectMapper(YAMLFactory.builder().build());
        this.yaml.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }

    /**
     * @param file  the YAML file, if any
     * @param flags explicitly given flags by key name (flags left at their defaults must not be passed)
     */
    public ResolvedConfig load(Optional<Path> file, Map<String, String> flags) {
        Map<String, String> fromFile = new HashMap<>();
        Map<String, String> tenants = new java.util.TreeMap<>();
        file.ifPresent(f -> readFile(f, fromFile, tenants));
        String fileSource = file.map(f -> "file " + f).orElse("");
        List<Setting> out = new ArrayList<>();
        for (ConfigKey k : keys.all()) {
            String flag = flags.get(k.name());
            String fromEnv = env.get(k.env());
            if (flag != null) {
                out.add(new Setting(k, Optional.of(flag), "flag " + k.flag().orElse("?")));
            } else if (fromEnv != null && !fromEnv.isBlank()) {
                out.add(new Setting(k, Optional.of(fromEnv.trim()), "env " + k.env()));
            } else if (fromFile.containsKey(k.name())) {
                out.add(new Setting(k, Optional.of(fromFile.get(k.name())), fileSource));
            } else {
                out.add(new Setting(k, k.defaultValue(), "default"));
            }
        }
        return new ResolvedConfig(out, tenants, fileSource);
    }

    private void readFile(Path file, Map<String, String> values, Map<String, String> tenants) {
        JsonNode root;
        try {
            root = yaml.readTree(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new ConfigException("--config: " + file + " does not exist");
        } catch (JsonProcessingException e) {
            throw new ConfigException("--config " + file + ": not valid YAML: " + e.getOriginalMessage()
                    + location(e), e);
        } catch (IOException e) {
            throw new ConfigException("--config: cannot read " + file + ": " + e.getMessage(), e);
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return; // an empty file: every key at its default
        }
        if (!root.isObject()) {
            throw new ConfigException("--config " + file + ": the top level must be a mapping of sections");
        }
        walk(file, "", root, values, tenants);
    }

    private void walk(Path file, String prefix, JsonNode node, Map<String, String> values,
            Map<String, String> tenants) {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String name = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            JsonNode v = e.getValue();
            if (keys.isMapSection(name)) {
                if (!v.isObject()) {
                    throw new ConfigException(file + ": " + name + " is a mapping; expected <tenant>: <value>");
                }
                for (Map.Entry<String, JsonNode> t : v.properties()) {
                    if (t.getValue().isContainerNode() || t.getValue().isNull()) {
                        throw new ConfigException(file + ": " + name + "." + t.getKey() + ": expected a single value");
                    }
                    tenants.put(t.getKey(), t.getValue().asText().trim());
                }
            } else if (keys.isSection(name)) {
                if (v.isNull() || v.isMissingNode() || (v.isTextual() && v.textValue().isEmpty())) {
                    continue; // a section whose keys are all commented out, as config check prints unset ones
                }
                if (!v.isObject()) {
                    throw new ConfigException(file + ": " + name + " is a section; expected keys under it");
                }
                walk(file, name, v, values, tenants);
            } else if (keys.find(name).isPresent()) {
                if (v.isContainerNode()) {
                    throw new ConfigException(file + ": " + name + ": expected a single value");
                }
                if (v.isNull() || v.isMissingNode() || (v.isTextual() && v.asText().isEmpty())) {
                    throw new ConfigException(file + ": " + name + ": no value (remove the key for its default)");
                }
                values.put(name, v.asText().trim());
            } else {
                throw new ConfigException(file + ": unknown key '" + name + "'" + suggestion(name));
            }
        }
    }

    private String suggestion(String name) {
        String section = name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : "";
        List<String> known = keys.all().stream().map(ConfigKey::name)
                .filter(n -> section.isEmpty() ? !n.contains(".") || n.indexOf('.') > 0 : n.startsWith(section + "."))
                .map(n -> section.isEmpty() ? n.substring(0, n.indexOf('.')) : n)
                .distinct().toList();
        return known.isEmpty() ? "" : " (known: " + String.join(", ", known) + ")";
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
    }
}
