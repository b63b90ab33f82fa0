package dev.ourios.cli.config;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * picocli's default of each flag that stands for a setting of {@link ConfigKeys}: the setting's default, so a
 * default is written once, in the registry, and {@code ${DEFAULT-VALUE}} in a flag's help shows it. A command names
 * this provider in its {@code @Command(defaultValueProvider = …)}; flags the provider does not map keep their own
 * defaults.
 */
public class FlagDefaults implements IDefaultValueProvider {
    private final Map<String, String> defaultByFlag;

    /** @param keyByFlag the setting each flag stands for, by the flag's longest name */
    protected FlagDefaults(ConfigKeys keys, Map<String, String> keyByFlag) {
        Map<String, String> d = new LinkedHashMap<>();
        keyByFlag.forEach((flag, key) -> keys.get(key).defaultValue().ifPresent(v -> d.put(flag, v)));
        this.defaultByFlag = Map.copyOf(d);
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        return arg instanceof OptionSpec o ? defaultByFlag.get(o.longestName()) : null;
    }

    /** The flags of {@code ourios compact} and {@code ourios serve} that set a {@code compaction.*} key. */
    public static final class Compaction extends FlagDefaults {
        public Compaction() {
            this(ConfigKeys.standard());
        }

        Compaction(ConfigKeys keys) {
            super(keys, compactionFlags(keys));
        }

        private static Map<String, String> compactionFlags(ConfigKeys keys) {
            Map<String, String> m = new LinkedHashMap<>();
            for (ConfigKey k : keys.all()) {
                // A negatable flag with a default of true would turn its positive form off (picocli sets it to the
                // opposite of its default): --rollup applies the setting's default itself when neither form is given.
                if (k.section().equals("compaction") && k.flag().isPresent() && !k.name().equals(ConfigKeys.ROLLUP)) {
                    m.put(k.flag().get(), k.name());
                }
            }
            return m;
        }
    }

    /** {@code ourios iceberg sync --time-type}: the form {@code serve} gives a view it makes. */
    public static final class IcebergSync extends FlagDefaults {
        public IcebergSync() {
            super(ConfigKeys.standard(), Map.of("--time-type", ConfigKeys.ICEBERG_TIME_TYPE));
        }
    }

    /**
     * The flags of {@code ourios gc}: its {@code --grace} is the GC grace of a sweep ({@code compaction.gc_grace}),
     * not the sealing grace the same flag name sets in {@code compact}.
     */
    public static final class Gc extends FlagDefaults {
        public Gc() {
            super(ConfigKeys.standard(), Map.of("--grace", ConfigKeys.GC_GRACE,
                    "--scratch", ConfigKeys.SCRATCH,
                    "--scratch-debris-age", ConfigKeys.SCRATCH_DEBRIS_AGE));
        }
    }
}
