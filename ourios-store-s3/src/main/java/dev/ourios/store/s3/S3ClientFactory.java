package dev.ourios.store.s3;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** Builds the synchronous SDK client an {@link S3ObjectStore} uses. */
final class S3ClientFactory {
    private S3ClientFactory() {
    }

    static S3Client create(S3Config config, RequestCounters counters) {
        S3Timeouts t = config.timeouts();
        S3ClientBuilder b = S3Client.builder()
                .region(Region.of(config.region()))
                .credentialsProvider(credentials(config))
                .httpClientBuilder(Apache5HttpClient.builder()
                        // Connection refused is immediate; a black-holed endpoint should fail fast too, and one
                        // that accepts and never answers fails on the read, attempt and call deadlines below.
                        .connectionTimeout(t.connect())
                        .socketTimeout(t.read())
                        .maxConnections(64))
                .overrideConfiguration(o -> o
                        .apiCallAttemptTimeout(t.attempt())
                        .apiCallTimeout(t.call())
                        // Standard strategy: retries throttling (with its longer backoff), 5xx and I/O errors
                        // with jittered exponential backoff. 4xx such as a conditional PUT's 412 are not retried.
                        .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                                .maxAttempts(config.maxAttempts()).build())
                        .addExecutionInterceptor(new CountingInterceptor(counters)));
        config.endpoint().ifPresent(endpoint -> b.endpointOverride(endpoint)
                .forcePathStyle(true)
                // Many S3-compatible servers reject aws-chunked trailing checksums; only send them when required.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED));
        return b.build();
    }

    private static AwsCredentialsProvider credentials(S3Config config) {
        return config.staticCredentials()
                .<AwsCredentialsProvider>map(c -> StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(c.accessKeyId(), c.secretAccessKey())))
                .orElseGet(() -> DefaultCredentialsProvider.builder().build());
    }
}
