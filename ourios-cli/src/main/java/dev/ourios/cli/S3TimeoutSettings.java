package dev.ourios.cli;

import dev.ourios.cli.config.ConfigKeys;
import dev.ourios.store.s3.S3Timeouts;
import java.time.Duration;
import java.util.Map;

/**
 * The S3 deadlines of the one-shot commands, from the same {@code OURIOS_S3_*_TIMEOUT} variables {@code serve}
 * reads (its configuration keys {@code store.s3.*_timeout}); unset or blank means the default. A bad value is
 * refused with one line naming the variable.
 */
final class S3TimeoutSettings {
    private static final ConfigKeys KEYS = ConfigKeys.standard();
    static final String CONNECT = KEYS.get(ConfigKeys.S3_CONNECT_TIMEOUT).env();
    static final String READ = KEYS.get(ConfigKeys.S3_READ_TIMEOUT).env();
    static final String ATTEMPT = KEYS.get(ConfigKeys.S3_ATTEMPT_TIMEOUT).env();
    static final String CALL = KEYS.get(ConfigKeys.S3_CALL_TIMEOUT).env();

    private S3TimeoutSettings() {
    }

    static S3Timeouts fromEnvironment(Map<String, String> env) {
        Duration connect = duration(env, CONNECT, S3Timeouts.DEFAULT_CONNECT);
        Duration read = duration(env, READ, S3Timeouts.DEFAULT_READ);
        Duration attempt = duration(env, ATTEMPT, S3Timeouts.DEFAULT_ATTEMPT);
        Duration call = duration(env, CALL, S3Timeouts.DEFAULT_CALL);
        if (env.get(ATTEMPT) == null && attempt.compareTo(call) > 0) {
            attempt = call; // only the overall deadline was lowered: each attempt fits inside it
        }
        try {
            return new S3Timeouts(connect, read, attempt, call);
        } catch (IllegalArgumentException e) {
            throw new UsageException(CALL + ", " + ATTEMPT + ": " + e.getMessage(), e);
        }
    }

    private static Duration duration(Map<String, String> env, String name, Duration fallback) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        Duration d = Units.parseDuration(name, v);
        if (d.isZero()) {
            throw new UsageException(name + ": must be positive (got '" + v + "')");
        }
        return d;
    }
}
