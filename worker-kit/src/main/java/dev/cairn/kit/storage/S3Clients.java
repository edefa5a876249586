package dev.cairn.kit.storage;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** Makes the {@link S3Client} that {@link S3Settings} describe, on the URL-connection HTTP client. */
final class S3Clients {

    private S3Clients() {
    }

    /**
     * A client as {@code settings} say, the rest from the SDK's default chains.
     *
     * @throws IllegalStateException when the SDK cannot make it (no region in the settings nor the SDK's chain)
     */
    static S3Client create(S3Settings settings) {
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .forcePathStyle(settings.pathStyleAccess())
                .credentialsProvider(credentials(settings));
        settings.endpoint().ifPresent(builder::endpointOverride);
        settings.region().map(Region::of).ifPresent(builder::region);
        settings.flexibleChecksums().ifPresent(flexible -> builder
                .requestChecksumCalculation(flexible ? RequestChecksumCalculation.WHEN_SUPPORTED
                        : RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(flexible ? ResponseChecksumValidation.WHEN_SUPPORTED
                        : ResponseChecksumValidation.WHEN_REQUIRED));
        try {
            return builder.build();
        } catch (SdkClientException e) {
            throw new IllegalStateException("cannot make an S3 client with " + settings + ": " + e.getMessage()
                    + " (set the region with s3.region or CAIRN_S3_REGION, or the SDK's AWS_REGION, aws.region or "
                    + "a profile's region)", e);
        }
    }

    private static AwsCredentialsProvider credentials(S3Settings settings) {
        if (settings.accessKey().isPresent()) {
            return StaticCredentialsProvider.create(AwsBasicCredentials.create(settings.accessKey().get(),
                    settings.secretKey().orElseThrow()));
        }
        return DefaultCredentialsProvider.builder().build();
    }
}
