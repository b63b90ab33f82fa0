package dev.ourios.gen;

import dev.ourios.gen.DemoService.AttributeKey;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The services of the OpenTelemetry demo, in volume order, with the shares measured on a 48-hour capture of the
 * demo's logs: cart 56 %, recommendation 20 %, currency 12 %, ad 10 %, kafka 2.8 %, the rest
 * small. Templates per service are few, except kafka, whose broker lines barely template. The catalogue does not
 * depend on the seed: resource attributes and templates are the fixed "deployment"; only rows are random.
 */
public final class DemoCatalogue {
    private static final String SDK_VERSION = "1.38.0";

    private DemoCatalogue() {
    }

    /** The first {@code n} services (1..15) in volume order. */
    public static List<DemoService> services(int n) {
        List<DemoService> all = all();
        if (n < 1 || n > all.size()) {
            throw new IllegalArgumentException("services must be 1.." + all.size() + ", got " + n);
        }
        return all.subList(0, n);
    }

    private static List<DemoService> all() {
        List<DemoService> s = new ArrayList<>();
        s.add(service(s.size(), "cart", 56.0, "Information", "cart.cartstore.ValkeyCartStore", "dotnet", 10, 0.02,
                0.95, keys("app.user.id:uuid", "app.product.id:product", "app.product.quantity:int:qty"),
                t("GetCartAsync called with userId={UUID}", 1),
                t("AddItemAsync called with userId={UUID}, productId={STR:product}, quantity={NUM:qty}", 3),
                t("EmptyCartAsync called with userId={UUID}", 1)));
        s.add(service(s.size(), "recommendation", 20.0, "INFO", "recommendation_server", "python", 21, 0.02, 0.9,
                keys("app.products_recommended.count:int:qty", "app.products.count:int:qty",
                        "app.recommendation.cache_enabled:bool"),
                t("Receive ListRecommendations for product ids:['{STR:product}', '{STR:product}', '{STR:product}', "
                        + "'{STR:product}', '{STR:product}']", 2),
                t("Receive ListRecommendations for product ids:['{STR:product}']", 2),
                t("Receive ListRecommendations for product ids:['{STR:product}', '{STR:product}']", 2),
                t("get_product_list: product_ids={STR:product} cache_hit={STR:bool}", 3),
                t("Cache miss for product catalog, fetched {NUM:qty} products in {NUM:ms} ms", 1)));
        s.add(service(s.size(), "currency", 12.0, "INFO", "currency", "cpp", 6, 0.01, 0.9, keys(),
                t("Currency conversion request successful: {NUM:amount}.{NUM:cents} {STR:currency} to "
                        + "{STR:currency}", 0)));
        s.add(service(s.size(), "ad", 10.0, "INFO", "oteldemo.AdService", "java", 7, 0.02, 0.9,
                keys("app.ads.contextKeys:category", "app.ads.contextKeys.count:int:qty", "app.ads.count:int:qty",
                        "app.ads.ad_request_type:adtype", "app.ads.ad_response_type:adtype", "thread.name:thread",
                        "code.lineno:int:num"),
                t("Targeted ad request received for [{STR:category}]", 7),
                t("Non-targeted ad request received, preparing random response.", 7),
                t("Adservice received an ad request with context keys [{STR:category}, {STR:category}]", 7)));
        s.add(service(s.size(), "kafka", 2.8, "INFO", "kafka.server.ReplicaManager", "java", 6, 0.4, 0.0,
                keys("thread.name:thread"), kafkaTemplates()));
        String[][] small = {
            {"checkout", "go", "10", "INFO", "checkout"},
            {"frontend", "nodejs", "13", "INFO", "frontend"},
            {"payment", "nodejs", "10", "INFO", "payment"},
            {"shipping", "rust", "6", "INFO", "shipping"},
            {"email", "ruby", "7", "INFO", "email"},
            {"quote", "php", "10", "INFO", "quote"},
            {"product-catalog", "go", "10", "INFO", "product-catalog"},
            {"accounting", "dotnet", "10", "Information", "AccountingService.Consumer"},
            {"fraud-detection", "java", "21", "INFO", "frauddetection"},
            {"frontend-proxy", "cpp", "6", "INFO", "frontend-proxy"},
        };
        for (String[] row : small) {
            s.add(service(s.size(), row[0], 0.1, row[3], row[4], row[1], Integer.parseInt(row[2]), 0.05, 0.8,
                    keys("app.order.id:uuid", "app.user.id:uuid"), smallTemplates(row[0])));
        }
        return List.copyOf(s);
    }

    private static Object[] smallTemplates(String service) {
        return switch (service) {
            case "checkout" -> new Object[] {t("[PlaceOrder] user_id=\"{UUID}\" user_currency=\"{STR:currency}\"", 1),
                t("payment went through (transaction_id: {UUID})", 1),
                t("order confirmation email sent to \"{STR:email}\"", 2)};
            case "frontend" -> new Object[] {t("GET {PATH} {NUM:status} in {NUM:ms}ms", 0),
                t("request to {PATH} completed with status {NUM:status}", 1)};
            case "payment" -> new Object[] {t("Charge request received.", 1),
                t("Transaction complete. transactionId={UUID} cardType={STR:card} amount={NUM:amount}.{NUM:cents} "
                        + "{STR:currency}", 2)};
            case "shipping" -> new Object[] {t("Received quote request for {NUM:qty} items", 0),
                t("Sending Quote: {NUM:amount}.{NUM:cents}", 0), t("Tracking ID Created: {UUID}", 1)};
            case "email" -> new Object[] {t("Order confirmation email sent to: {STR:email}", 1)};
            case "quote" -> new Object[] {t("Received request for quote: {NUM:qty} items", 0),
                t("Calculated quote: {NUM:amount}.{NUM:cents}", 0)};
            case "product-catalog" -> new Object[] {t("Product Found with ID {STR:product}", 0),
                t("Loaded {NUM:qty} products from the catalog", 0)};
            case "accounting" -> new Object[] {t("Order details: {UUID} shipping cost {NUM:amount}.{NUM:cents} "
                    + "{STR:currency}", 1)};
            case "fraud-detection" -> new Object[] {t("Consumed record with orderId: {UUID}, and updated total count "
                    + "to: {NUM:offset}", 1)};
            case "frontend-proxy" -> new Object[] {t("[{TS}] \"GET {PATH} HTTP/1.1\" {NUM:status} - 0 {NUM:amount} "
                    + "{NUM:ms} \"{IP}\" \"{STR:agent}\"", 0)};
            default -> throw new IllegalArgumentException(service);
        };
    }

    /**
     * The broker's lines are many and barely template (14,608 templates in the real capture): every component
     * crossed with every action, each with its own parameter layout.
     */
    private static Object[] kafkaTemplates() {
        String[] components = {"ReplicaManager", "Log partition", "GroupCoordinator", "TransactionCoordinator",
            "Controller", "KafkaApi", "LogCleaner", "SocketServer", "ReplicaFetcherThread", "UnifiedLog",
            "ProducerStateManager", "LocalLog"};
        String[] actions = {
            "Incremented log start offset to {NUM:offset} for partition {STR:topic}-{NUM:part} due to leader "
                    + "offset increment",
            "Rolled new log segment at offset {NUM:offset} in {NUM:ms} ms.",
            "Deleting segment LogSegment(baseOffset={NUM:offset}, size={NUM:amount}, lastModifiedTime={NUM:offset})",
            "Member {UUID} in group {STR:topic} has failed, removing it from the group",
            "Preparing to rebalance group {STR:topic} in state PreparingRebalance with old generation {NUM:qty}",
            "Stabilized group {STR:topic} generation {NUM:qty} with {NUM:qty} members",
            "Truncating partition {STR:topic}-{NUM:part} to local high watermark {NUM:offset}",
            "Wrote producer snapshot at offset {NUM:offset} with {NUM:qty} producer ids in {NUM:ms} ms.",
            "Accepted connection from /{IP}:{NUM:amount} on /{IP}:9092 and assigned it to processor {NUM:qty}",
            "Fetch session {HEX} evicted, cache size {NUM:amount}",
        };
        Object[] out = new Object[components.length * actions.length];
        int i = 0;
        for (String c : components) {
            for (String a : actions) {
                out[i++] = t("[" + c + " id={NUM:broker}] " + a, 1);
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- building blocks

    /** A template pattern and attribute count; the id is assigned per service in {@link #service}. */
    private record PendingTemplate(String pattern, int attributeCount) {
    }

    private static PendingTemplate t(String pattern, int attributeCount) {
        return new PendingTemplate(pattern, attributeCount);
    }

    private static List<AttributeKey> keys(String... specs) {
        List<AttributeKey> out = new ArrayList<>();
        for (String spec : specs) {
            int colon = spec.indexOf(':');
            out.add(new AttributeKey(spec.substring(0, colon), spec.substring(colon + 1)));
        }
        return out;
    }

    private static DemoService service(int ordinal, String name, double weight, String infoText, String scope,
            String language, int resourceCount, double lossyRate, double tracedRate, List<AttributeKey> keys,
            Object... templates) {
        List<Template> ts = new ArrayList<>();
        for (int i = 0; i < templates.length; i++) {
            PendingTemplate p = (PendingTemplate) templates[i];
            // Ids are unique across services: the service ordinal in the high bits, 1-based index in the low ones.
            ts.add(Template.parse(((long) (ordinal + 1) << 20) | (i + 1), p.pattern(), p.attributeCount()));
        }
        return new DemoService(name, weight, infoText, scope, null,
                AttributesJson.encode(resource(name, language, resourceCount)), ts, keys, lossyRate, tracedRate);
    }

    /** 6..21 resource attributes, service.name first, then telemetry.sdk, host, k8s and process attributes. */
    static List<KeyValue> resource(String service, String language, int count) {
        // Seeded by the name only, so a service's pod and instance ids are the same in every run and tenant.
        SplittableRandom r = new SplittableRandom(fnv(service));
        String pod = service + "-" + Long.toHexString(r.nextLong() >>> 28) + "-" + Long.toString(r.nextLong()
                >>> 38, 36);
        List<KeyValue> all = List.of(
                KeyValue.of("service.name", service),
                KeyValue.of("service.namespace", "opentelemetry-demo"),
                KeyValue.of("telemetry.sdk.language", language),
                KeyValue.of("telemetry.sdk.name", "opentelemetry"),
                KeyValue.of("telemetry.sdk.version", SDK_VERSION),
                KeyValue.of("host.name", pod),
                KeyValue.of("service.version", "2.0.2"),
                KeyValue.of("k8s.namespace.name", "otel-demo"),
                KeyValue.of("k8s.pod.name", pod),
                KeyValue.of("k8s.node.name", "node-" + (fnv(service) & 3)),
                KeyValue.of("k8s.deployment.name", service),
                KeyValue.of("service.instance.id", Vocabulary.uuid(r)),
                KeyValue.of("container.id", Long.toHexString(r.nextLong()) + Long.toHexString(r.nextLong())),
                KeyValue.of("os.type", "linux"),
                KeyValue.of("os.description", "Debian GNU/Linux 12 (bookworm)"),
                KeyValue.of("host.arch", "amd64"),
                KeyValue.of("process.pid", (long) r.nextInt(1, 400)),
                KeyValue.of("process.runtime.name", language + "-runtime"),
                KeyValue.of("process.runtime.version", "1." + r.nextInt(30) + ".0"),
                KeyValue.of("process.executable.name", service),
                KeyValue.of("process.command_line", "/app/" + service + " --config /etc/" + service + ".yaml"));
        return all.subList(0, Math.min(count, all.size()));
    }

    /** FNV-1a over UTF-8: a stable 64-bit string hash (String.hashCode is only 32 bits). */
    static long fnv(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
