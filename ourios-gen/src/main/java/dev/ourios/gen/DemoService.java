package dev.ourios.gen;

import java.util.List;

/**
 * One OpenTelemetry-demo service as the generator models it.
 *
 * @param weight             relative share of the log volume
 * @param infoText           its INFO severity text: .NET services say "Information", the rest "INFO"
 * @param resourceAttributes canonical JSON, built once: every row of the service shares the same string, which is
 *                           what makes the column compress to almost nothing in real data
 * @param attributeKeys      log-attribute keys with their value kinds; a template takes the first N
 * @param lossyRate          share of rows the miner could not template cleanly (kept with their body)
 * @param tracedRate         share of rows carrying trace and span ids
 */
public record DemoService(String name, double weight, String infoText, String scopeName, String scopeVersion,
        String resourceAttributes, List<Template> templates, List<AttributeKey> attributeKeys, double lossyRate,
        double tracedRate) {

    /** A log attribute: key and vocabulary kind; kinds starting with {@code int:} yield ints, {@code bool} bools. */
    public record AttributeKey(String key, String kind) {
    }

    public DemoService {
        templates = List.copyOf(templates);
        attributeKeys = List.copyOf(attributeKeys);
        for (Template t : templates) {
            if (t.attributeCount() > attributeKeys.size()) {
                throw new IllegalArgumentException(name + ": template " + t.id() + " wants " + t.attributeCount()
                        + " attributes, service has " + attributeKeys.size());
            }
        }
    }
}
