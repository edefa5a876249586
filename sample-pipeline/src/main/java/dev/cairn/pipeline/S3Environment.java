package dev.cairn.pipeline;

import dev.cairn.kit.storage.S3Settings;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment variables that give a worker process {@link S3Settings}: what
 * {@link S3Settings#fromEnvironment} reads ({@code CAIRN_S3_ENDPOINT}, {@code CAIRN_S3_REGION},
 * {@code CAIRN_S3_PATH_STYLE_ACCESS}, {@code CAIRN_S3_FLEXIBLE_CHECKSUMS}) and the AWS SDK's own credentials
 * ({@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY}), which its default provider chain reads. A setting that
 * is not set gets no variable, so the worker takes it from the SDK's configuration as usual.
 */
public final class S3Environment {

    /** The S3 server to talk to instead of AWS's ({@link S3Settings#endpoint()}). */
    public static final String ENDPOINT = "CAIRN_S3_ENDPOINT";
    /** The region to sign for. */
    public static final String REGION = "CAIRN_S3_REGION";
    /** {@code true}: the bucket goes in the path. */
    public static final String PATH_STYLE_ACCESS = "CAIRN_S3_PATH_STYLE_ACCESS";
    /** {@code false}: only the checksums a request requires. */
    public static final String FLEXIBLE_CHECKSUMS = "CAIRN_S3_FLEXIBLE_CHECKSUMS";
    /** The AWS SDK's access key variable. */
    public static final String ACCESS_KEY_ID = "AWS_ACCESS_KEY_ID";
    /** The AWS SDK's secret key variable. */
    public static final String SECRET_ACCESS_KEY = "AWS_SECRET_ACCESS_KEY";

    private S3Environment() {
    }

    /** The variables that make a worker's {@link S3Settings#fromEnvironment} and SDK credentials {@code settings}. */
    public static Map<String, String> variables(S3Settings settings) {
        Map<String, String> variables = new LinkedHashMap<>();
        settings.endpoint().map(URI::toString).ifPresent(endpoint -> variables.put(ENDPOINT, endpoint));
        settings.region().ifPresent(region -> variables.put(REGION, region));
        if (settings.pathStyleAccess()) {
            variables.put(PATH_STYLE_ACCESS, "true");
        }
        settings.flexibleChecksums().ifPresent(on -> variables.put(FLEXIBLE_CHECKSUMS, on.toString()));
        settings.accessKey().ifPresent(key -> variables.put(ACCESS_KEY_ID, key));
        settings.secretKey().ifPresent(key -> variables.put(SECRET_ACCESS_KEY, key));
        return Map.copyOf(variables);
    }
}
