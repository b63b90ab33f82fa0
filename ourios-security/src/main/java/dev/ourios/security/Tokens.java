package dev.ourios.security;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;

/**
 * Fresh API tokens: {@code ourios_} followed by 256 random bits in unpadded base64url (43 characters). The prefix
 * lets secret scanners and people recognise a leaked token; the randomness is what makes the fast hash of
 * {@link TokenHash} sound.
 */
public final class Tokens {
    public static final String PREFIX = "ourios_";
    private static final int BYTES = 32;
    private final SecureRandom random;

    public Tokens(SecureRandom random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    public String next() {
        byte[] b = new byte[BYTES];
        random.nextBytes(b);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
