package dev.ourios.cli;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Collection;

/**
 * Says so on stderr when a command names a tenant the store has never held. The result stays what it is (no rows,
 * no files, nothing verified, exit 0), but a typo in {@code --tenant} does not look like a quiet hour. One
 * listing per tenant, of that tenant's own directory only.
 */
final class UnknownTenants {
    private UnknownTenants() {
    }

    static void report(ObjectStore store, String storeUri, Collection<String> tenants, PrintStream err)
            throws IOException {
        for (String t : tenants) {
            if (store.listDirectories(PartitionKey.DATA_ROOT + PartitionKey.tenantSegment(t) + "/").isEmpty()) {
                err.println("ourios: store " + storeUri + " has no tenant '" + TableText.escape(t) + "'");
            }
        }
    }
}
