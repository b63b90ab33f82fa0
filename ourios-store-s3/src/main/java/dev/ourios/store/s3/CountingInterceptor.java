package dev.ourios.store.s3;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * Feeds {@link RequestCounters} from the SDK pipeline. It hooks each transmission rather than each API call, so a
 * retried request counts once per attempt, as S3 bills it.
 */
final class CountingInterceptor implements ExecutionInterceptor {
    private final RequestCounters counters;

    CountingInterceptor(RequestCounters counters) {
        this.counters = counters;
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        SdkRequest r = context.request();
        if (r instanceof ListObjectsV2Request || r instanceof ListMultipartUploadsRequest) {
            counters.list();
        } else if (r instanceof GetObjectRequest) {
            counters.get();
        } else if (r instanceof HeadObjectRequest || r instanceof HeadBucketRequest) {
            counters.head();
        } else if (r instanceof PutObjectRequest || r instanceof UploadPartRequest
                || r instanceof CreateMultipartUploadRequest || r instanceof CompleteMultipartUploadRequest) {
            counters.put();
        } else if (r instanceof DeleteObjectRequest || r instanceof AbortMultipartUploadRequest) {
            counters.delete();
        }
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        // Bytes the server sends for a GET: for a ranged GET this is the range, which is the point of counting.
        if (context.request() instanceof GetObjectRequest && context.httpResponse().isSuccessful()) {
            context.httpResponse().firstMatchingHeader("Content-Length").ifPresent(v -> {
                try {
                    counters.getBytes(Long.parseLong(v.trim()));
                } catch (NumberFormatException ignored) {
                    // a malformed header is the SDK's problem to report; accounting just skips it
                }
            });
        }
    }
}
