package dev.ourios.cli.config;

import dev.ourios.cli.Units;
import dev.ourios.cli.UsageException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/** Converts one setting's text to its type; every error names the setting (key, and variable or flag). */
final class Values {
    private final ResolvedConfig config;

    Values(ResolvedConfig config) {
        this.config = config;
    }

    String label(String name) {
        return config.setting(name).label();
    }

    String string(String name) {
        Setting s = config.setting(name);
        return s.value().orElseThrow(() -> new ConfigException(s.label() + ": no value"));
    }

    java.util.Optional<String> optional(String name) {
        return config.value(name).filter(v -> !v.isEmpty());
    }

    Duration duration(String name) {
        Setting s = config.setting(name);
        return rethrow(s, () -> Units.parseDuration(s.label(), string(name)));
    }

    /** The registry's bounds of the key (the largest value the callers that check it refuse themselves). */
    ConfigKey.Range range(String name) {
        return config.setting(name).key().range();
    }

    /** A size at least the key's minimum; the key's maximum, when it has one, is the caller's to check. */
    long size(String name) {
        Setting s = config.setting(name);
        long min = s.key().range().min();
        long v = rethrow(s, () -> Units.parseSize(s.label(), string(name)));
        if (v < min) {
            throw new ConfigException(s.label() + ": must be at least " + min + " " + s.key().unit() + " (got " + v
                    + ")");
        }
        return v;
    }

    /** An integer within the key's range. */
    int integer(String name) {
        Setting s = config.setting(name);
        long min = s.key().range().min();
        long max = s.key().range().max();
        String v = string(name);
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new ConfigException(s.label() + ": '" + v + "' is not an integer");
        }
        if (n < min || n > max) {
            throw new ConfigException(s.label() + ": must be " + min + ".." + max + " (got " + n + ")");
        }
        return n;
    }

    double fraction(String name) {
        Setting s = config.setting(name);
        String v = string(name);
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new ConfigException(s.label() + ": '" + v + "' is not a number");
        }
        if (!(d >= 0 && d <= 1)) {
            throw new ConfigException(s.label() + ": must be between 0 and 1 (got " + v + ")");
        }
        return d;
    }

    boolean bool(String name) {
        Setting s = config.setting(name);
        String v = string(name).toLowerCase(Locale.ROOT);
        return switch (v) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new ConfigException(s.label() + ": '" + v + "' is not a boolean (use true or false)");
        };
    }

    InetSocketAddress listen(String name) {
        Setting s = config.setting(name);
        String v = string(name);
        int colon = v.lastIndexOf(':');
        if (colon <= 0 || colon == v.length() - 1) {
            throw new ConfigException(s.label() + ": '" + v + "' is not host:port (e.g. 127.0.0.1:4319)");
        }
        String host = v.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(v.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new ConfigException(s.label() + ": '" + v + "' has no numeric port");
        }
        if (port < 0 || port > 65535) {
            throw new ConfigException(s.label() + ": port must be 0..65535 (got " + port + ")");
        }
        // Unresolved: resolution happens at bind time, where a failure names the key too.
        return InetSocketAddress.createUnresolved(host, port);
    }

    java.util.Optional<URI> url(String name) {
        Setting s = config.setting(name);
        return optional(name).map(v -> {
            URI u;
            try {
                u = URI.create(v);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(s.label() + ": '" + v + "' is not a URL");
            }
            if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https"))
                    || u.getHost() == null) {
                throw new ConfigException(s.label() + ": '" + v + "' is not an http(s)://host[:port] URL");
            }
            return u;
        });
    }

    Path path(String name) {
        Setting s = config.setting(name);
        String v = string(name);
        try {
            return Path.of(v);
        } catch (InvalidPathException e) {
            throw new ConfigException(s.label() + ": '" + v + "' is not a path: " + e.getReason());
        }
    }

    private static <T> T rethrow(Setting s, java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (ConfigException e) {
            throw e;
        } catch (UsageException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }
}
