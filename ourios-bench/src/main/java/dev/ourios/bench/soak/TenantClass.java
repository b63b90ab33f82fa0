package dev.ourios.bench.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One class of tenants of a soak (RFC 0009's small, medium and large tenants): its name and the lines per wall
 * second each of its tenants sends. The soak lands {@code --tenants} tenants of every class, named
 * {@code <class>-NN}, so a store holds tenants of very different sizes side by side.
 */
public record TenantClass(String name, long linesPerSecond) {
    public TenantClass {
        if (!name.matches("[a-z][a-z0-9]{0,15}")) {
            throw new IllegalArgumentException("--classes: bad class name '" + name
                    + "' (lower-case letters and digits, at most 16)");
        }
        if (linesPerSecond < 1) {
            throw new IllegalArgumentException("--classes: class " + name + " needs a rate >= 1 line/s");
        }
    }

    /** The tenant name of this class's {@code index}-th tenant. */
    public String tenant(int index) {
        return String.format(Locale.ROOT, "%s-%02d", name, index);
    }

    /** {@code small=40,medium=800,large=16000}: lines per second per tenant of each class, in that order. */
    public static List<TenantClass> parse(String spec) {
        List<TenantClass> out = new ArrayList<>();
        for (String part : spec.split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--classes: '" + part + "' is not NAME=LINES_PER_S (e.g. "
                        + "small=40,medium=800,large=16000)");
            }
            long rate;
            try {
                rate = Long.parseLong(part.substring(eq + 1).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--classes: '" + part + "' has no whole number of lines/s");
            }
            TenantClass c = new TenantClass(part.substring(0, eq).trim(), rate);
            if (out.stream().anyMatch(o -> o.name().equals(c.name()))) {
                throw new IllegalArgumentException("--classes: class " + c.name() + " named twice");
            }
            out.add(c);
        }
        return List.copyOf(out);
    }

    /** The spec form {@link #parse} reads. */
    public static String format(List<TenantClass> classes) {
        return String.join(",", classes.stream().map(c -> c.name() + "=" + c.linesPerSecond()).toList());
    }
}
