package dev.ourios.cli;

import dev.ourios.core.PartitionKey;
import dev.ourios.table.PartitionFilter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Option;

/** {@code --tenant T} (repeatable) and {@code --partition YYYY-MM-DDTHH}: which partitions a command touches. */
public final class ScopeFlags {
    @Option(names = "--tenant", paramLabel = "T", description = "Only this tenant (repeatable)")
    List<String> tenants = new ArrayList<>();

    @Option(names = "--partition", paramLabel = "YYYY-MM-DDTHH", description = "Only this hour")
    String partition;

    public PartitionFilter toFilter() {
        PartitionFilter f = PartitionFilter.all();
        if (!tenants.isEmpty()) {
            Set<String> ids = new LinkedHashSet<>();
            for (String t : tenants) {
                ids.add(TenantArg.require("--tenant", t));
            }
            f = f.withTenants(ids);
        }
        if (partition != null) {
            PartitionKey k;
            try {
                k = PartitionKey.parseLabel("x", partition);
            } catch (RuntimeException e) {
                throw new UsageException("--partition: " + e.getMessage());
            }
            f = f.withWindow(k.hourStart(), k.hourStart().plusSeconds(3600));
        }
        return f;
    }

    public Optional<String> partitionLabel() {
        return Optional.ofNullable(partition);
    }
}
