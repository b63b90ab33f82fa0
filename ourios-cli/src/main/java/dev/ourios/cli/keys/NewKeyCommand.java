package dev.ourios.cli.keys;

import dev.ourios.cli.UsageException;
import dev.ourios.security.ApiKey;
import dev.ourios.security.KeysFileException;
import dev.ourios.security.KeysFileStore;
import dev.ourios.security.Scope;
import dev.ourios.security.TenantGrant;
import dev.ourios.security.TenantHeader;
import dev.ourios.security.TokenHash;
import dev.ourios.security.Tokens;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ourios keys new --name N --tenant T --scope S}: appends a key to the keys file (its hash only) and prints
 * the fresh token, once, alone on stdout, so {@code TOKEN=$(ourios keys new …)} captures exactly the token.
 */
@Command(name = "new", mixinStandardHelpOptions = true, description = "Create an API key: append its hash to the keys file and print the token once")
public final class NewKeyCommand implements Callable<Integer> {
    @Option(names = "--name", required = true, paramLabel = "NAME",
            description = "Unique key name (1 to 64 of A-Z a-z 0-9 . _ -), shown in logs")
    String name;

    @Option(names = "--tenant", required = true, paramLabel = "T",
            description = "Tenant the key may use (repeatable); '*' for every tenant")
    List<String> tenants;

    @Option(names = "--scope", required = true, paramLabel = "SCOPE",
            description = "ingest, query or admin (repeatable; admin includes the others)")
    List<String> scopes;

    @Mixin
    KeysFileOption file;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (!ApiKey.validName(name)) {
            throw new UsageException("--name: " + ApiKey.nameRule(name));
        }
        String token = new Tokens(new SecureRandom()).next();
        ApiKey key = new ApiKey(name, TokenHash.of(token), grant(tenants), scopes(scopes),
                Clock.systemUTC().instant().truncatedTo(ChronoUnit.SECONDS), Optional.empty());
        KeysFileStore store = file.store(System.getenv());
        try {
            store.update(f -> f.add(key));
        } catch (KeysFileException e) {
            throw new UsageException(e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new UsageException(store.file() + ": " + e.getMessage(), e);
        }
        var out = spec.commandLine().getOut();
        out.println(token);
        out.flush();
        var err = spec.commandLine().getErr();
        err.println("created key '" + name + "' (tenants " + KeyTable.tenants(key.tenants()) + "; scopes "
                + KeyTable.scopes(key.scopes()) + ") in " + store.file() + "; the token is shown only this once");
        err.flush();
        return 0;
    }

    static TenantGrant grant(List<String> tenants) {
        if (tenants.contains(TenantGrant.ANY)) {
            if (tenants.size() > 1) {
                throw new UsageException("--tenant: '*' (every tenant) cannot be combined with other tenants");
            }
            return TenantGrant.every();
        }
        Set<String> distinct = new LinkedHashSet<>();
        for (String t : tenants) {
            if (!TenantHeader.isTenantId(t)) {
                throw new UsageException("--tenant: '" + t + "' is not a tenant id (a non-empty string of valid "
                        + "Unicode)");
            }
            distinct.add(t);
        }
        return TenantGrant.of(List.copyOf(distinct));
    }

    static Set<Scope> scopes(List<String> names) {
        Set<Scope> out = EnumSet.noneOf(Scope.class);
        for (String n : names) {
            out.add(Scope.parse(n).orElseThrow(() -> new UsageException("--scope: '" + n + "' is not a scope ("
                    + Scope.known() + ")")));
        }
        return out;
    }
}
