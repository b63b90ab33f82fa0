package dev.ourios.bench.soak;

import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tenants of a soak and the generator of each: one generator for every tenant at the same rate, or one per
 * tenant class ({@link TenantClass}), whose tenants send that class's rate. Rows per file follow from the rate:
 * a steady-state hour of a tenant (its on-time files plus the previous hour's late files) carries
 * {@code rate x hourSeconds} rows.
 */
public final class SoakTenants {
    /** The class of every tenant of a soak without classes. */
    static final String UNCLASSED = "tenant";
    private final List<String> tenants;
    private final Map<String, LogGenerator> generators;
    private final Map<String, String> classOf;

    private SoakTenants(List<String> tenants, Map<String, LogGenerator> generators, Map<String, String> classOf) {
        this.tenants = List.copyOf(tenants);
        this.generators = generators;
        this.classOf = classOf;
    }

    public static SoakTenants of(SoakOptions o, Instant firstHour) {
        int filesPerTenantHour = o.filesPerHour() + o.lateFiles();
        List<String> tenants = new ArrayList<>();
        Map<String, LogGenerator> generators = new LinkedHashMap<>();
        Map<String, String> classOf = new LinkedHashMap<>();
        if (o.classes().isEmpty()) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < o.tenants(); i++) {
                names.add(String.format("tenant-%02d", i));
            }
            LogGenerator g = new LogGenerator(GeneratorSpec.of(names, firstHour, o.hours(), filesPerTenantHour,
                    o.rowsPerFile(), o.seed()));
            for (String t : names) {
                tenants.add(t);
                generators.put(t, g);
                classOf.put(t, UNCLASSED);
            }
        } else {
            for (TenantClass c : o.classes()) {
                List<String> names = new ArrayList<>();
                for (int i = 0; i < o.tenants(); i++) {
                    names.add(c.tenant(i));
                }
                int rows = SoakOptions.rowsPerFile(c.linesPerSecond(), o.hourSeconds(), 1, filesPerTenantHour);
                LogGenerator g = new LogGenerator(GeneratorSpec.of(names, firstHour, o.hours(), filesPerTenantHour,
                        rows, o.seed()));
                for (String t : names) {
                    tenants.add(t);
                    generators.put(t, g);
                    classOf.put(t, c.name());
                }
            }
        }
        return new SoakTenants(tenants, generators, classOf);
    }

    /** Every tenant, classes in the order given. */
    public List<String> names() {
        return tenants;
    }

    public LogGenerator generator(String tenant) {
        LogGenerator g = generators.get(tenant);
        if (g == null) {
            throw new IllegalArgumentException("BUG: no tenant " + tenant + " in this soak");
        }
        return g;
    }

    public int rowsPerFile(String tenant) {
        return generator(tenant).spec().rowsPerFile();
    }

    /** The tenant's class, {@link #UNCLASSED} when the soak has no classes. */
    public String classOf(String tenant) {
        return classOf.get(tenant);
    }

    /** Rows per ingest file: one number, or each class's ({@code small 7/medium 143/…}). */
    public String rowsPerFileText() {
        return String.join("/", tenants.stream().map(n -> classOf(n).equals(UNCLASSED)
                ? Integer.toString(rowsPerFile(n)) : classOf(n) + " " + rowsPerFile(n)).distinct().toList());
    }
}
