package dev.ourios.gen;

import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Values for parameter slots and log attributes, by kind. Small vocabularies on purpose: real demo traffic cycles
 * through ten products and a handful of currencies, and that repetition is what dictionaries and ZSTD exploit.
 */
final class Vocabulary {
    private static final List<String> PRODUCTS = List.of("OLJCESPC7Z", "66VCHSJNUP", "1YMWWN1N4O", "L9ECAV7KIM",
            "2ZYFJ3GM2N", "0PUK6V6EV0", "LS4PSXUNUM", "9SIQT8TOJO", "6E92ZMYYFZ", "HQTGWGPNH4");
    private static final List<String> CURRENCIES = List.of("USD", "EUR", "CAD", "JPY", "GBP", "TRY", "CHF");
    private static final List<String> CATEGORIES = List.of("binoculars", "telescopes", "accessories", "assembly",
            "travel", "books");
    private static final List<String> PATHS = List.of("/api/cart", "/api/products", "/api/recommendations",
            "/api/checkout", "/api/currency", "/api/data", "/api/shipping", "/", "/product/OLJCESPC7Z",
            "/images/products/NationalParkFoundationExplorascope.jpg", "/_next/static/chunks/pages/_app.js");
    private static final List<String> TOPICS = List.of("orders", "__consumer_offsets", "orders-retry");
    private static final List<String> AGENTS = List.of("python-requests/2.31.0",
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0",
            "Go-http-client/1.1");
    private static final List<String> CARDS = List.of("visa", "mastercard", "amex");
    private static final List<String> STATUS = List.of("200", "200", "200", "200", "200", "304", "404", "500");
    private static final List<String> FILLER = List.of("lorem", "ipsum", "dolor", "sit", "amet", "consectetur",
            "adipiscing", "elit");

    private Vocabulary() {
    }

    /** A value of the given kind; {@code rowTime} feeds timestamp slots so they agree with the row. */
    static String value(String kind, SplittableRandom r, long rowTimeNanos) {
        return switch (kind) {
            case "uuid" -> uuid(r);
            case "ip" -> "10." + r.nextInt(256) + "." + r.nextInt(256) + "." + r.nextInt(1, 255);
            case "hex" -> Long.toHexString(r.nextLong() | Long.MIN_VALUE);
            case "ts" -> Instant.ofEpochSecond(0, rowTimeNanos).toString();
            case "path" -> pick(PATHS, r);
            case "product" -> pick(PRODUCTS, r);
            case "currency" -> pick(CURRENCIES, r);
            case "category" -> pick(CATEGORIES, r);
            case "topic" -> pick(TOPICS, r);
            case "agent" -> pick(AGENTS, r);
            case "card" -> pick(CARDS, r);
            case "status" -> pick(STATUS, r);
            case "adtype" -> r.nextBoolean() ? "TARGETED" : "NOT_TARGETED";
            case "thread" -> "grpc-default-executor-" + r.nextInt(8);
            case "bool" -> r.nextBoolean() ? "true" : "false";
            case "email" -> "user" + r.nextInt(10_000) + "@example.com";
            case "qty" -> Integer.toString(r.nextInt(1, 11));
            case "cents" -> String.format("%02d", r.nextInt(100));
            case "ms" -> Integer.toString(r.nextInt(1, 1 << r.nextInt(1, 12)));
            case "broker" -> Integer.toString(r.nextInt(1, 4));
            case "part" -> Integer.toString(r.nextInt(50));
            case "offset" -> Long.toString(r.nextLong(1_000_000_000L));
            case "amount", "num" -> Integer.toString(r.nextInt(1 << r.nextInt(1, 17)));
            default -> kind + "-" + r.nextInt(100);
        };
    }

    static String uuid(SplittableRandom r) {
        long hi = (r.nextLong() & ~0xF000L) | 0x4000L;
        long lo = (r.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new java.util.UUID(hi, lo).toString();
    }

    /** Space-separated words from a tiny vocabulary: compressible like real padding, not one repeated byte. */
    static void filler(StringBuilder sb, int targetLength, SplittableRandom r) {
        while (sb.length() < targetLength) {
            sb.append(' ').append(pick(FILLER, r));
        }
    }

    static <T> T pick(List<T> list, SplittableRandom r) {
        return list.get(r.nextInt(list.size()));
    }
}
