package dev.ourios.cli.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** Every key's effective text value with its source, before conversion to the typed {@link OuriosConfig}. */
public final class ResolvedConfig {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./@+-]+");
    private final Map<String, Setting> settings;
    private final Map<String, String> retentionTenants;
    private final String tenantsSource;

    /**
     * @param retentionTenants the {@code retention.tenants} mapping, tenant to duration text
     * @param tenantsSource    where that mapping came from (the file)
     */
    ResolvedConfig(List<Setting> settings, Map<String, String> retentionTenants, String tenantsSource) {
        this.retentionTenants = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(retentionTenants));
        this.tenantsSource = tenantsSource;
        Map<String, Setting> m = new LinkedHashMap<>();
        for (Setting s : settings) {
            m.put(s.key().name(), s);
        }
        this.settings = java.util.Collections.unmodifiableMap(m);
    }

    public Setting setting(String name) {
        Setting s = settings.get(name);
        if (s == null) {
            throw new IllegalArgumentException("BUG: no configuration key '" + name + "'");
        }
        return s;
    }

    public Optional<String> value(String name) {
        return setting(name).value();
    }

    /** The {@code retention.tenants} mapping: tenant to duration text, as the file gives it. */
    public Map<String, String> retentionTenants() {
        return retentionTenants;
    }

    public List<Setting> settings() {
        return List.copyOf(settings.values());
    }

    /**
     * The effective configuration as YAML that loads back (secrets masked, unset keys commented out), each value
     * followed by its source.
     */
    public String toYaml() {
        StringBuilder sb = new StringBuilder();
        List<String> open = new ArrayList<>();
        for (Setting s : settings.values()) {
            List<String> path = List.of(s.key().section().split("\\."));
            int common = 0;
            while (common < open.size() && common < path.size() && open.get(common).equals(path.get(common))) {
                common++;
            }
            open = new ArrayList<>(open.subList(0, common));
            for (int i = common; i < path.size(); i++) {
                sb.append("  ".repeat(i)).append(path.get(i)).append(":\n");
                open.add(path.get(i));
            }
            String indent = "  ".repeat(path.size());
            if (s.value().isEmpty()) {
                sb.append(indent).append("# ").append(s.key().leaf()).append(": (unset)  # ").append(s.source())
                        .append('\n');
            } else {
                sb.append(indent).append(s.key().leaf()).append(": ").append(scalar(s.shown())).append("  # ")
                        .append(s.source()).append('\n');
            }
        }
        if (!retentionTenants.isEmpty()) {
            // retention.default is the last key, so the retention section is the one still open.
            if (!open.equals(List.of("retention"))) {
                sb.append("retention:\n");
            }
            sb.append("  tenants:\n");
            retentionTenants.forEach((t, d) -> sb.append("    ").append(scalar(t)).append(": ").append(scalar(d))
                    .append("  # ").append(tenantsSource).append('\n'));
        }
        return sb.toString();
    }

    private static String scalar(String v) {
        if (PLAIN.matcher(v).matches() && !v.startsWith("-")) {
            return v;
        }
        return '"' + v.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
