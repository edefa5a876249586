package dev.cairn.kit.storage;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * How {@link S3Storage} reaches S3: what is set here overrides the AWS SDK's own configuration, and what is not set
 * comes from it, the usual way (the default credentials provider chain: {@code AWS_ACCESS_KEY_ID} and
 * {@code AWS_SECRET_ACCESS_KEY}, the system properties {@code aws.accessKeyId} and {@code aws.secretAccessKey}, the
 * profile files, container and instance credentials; the default region chain: {@code AWS_REGION},
 * {@code aws.region}, the profile's region).
 *
 * <p>In: properties ({@link #fromProperties}, the names below) or environment variables ({@link #fromEnvironment}).
 * Out: the settings, checked: a malformed value is an {@link IllegalArgumentException} naming the setting and what is
 * wrong with it. An empty value counts as not set.
 *
 * <table>
 *   <caption>settings</caption>
 *   <tr><th>property</th><th>environment variable</th><th>meaning</th></tr>
 *   <tr><td>{@code s3.endpoint}</td><td>{@code CAIRN_S3_ENDPOINT}</td><td>an S3-compatible server's
 *       {@code http(s)://host[:port]} instead of AWS's</td></tr>
 *   <tr><td>{@code s3.region}</td><td>{@code CAIRN_S3_REGION}</td><td>the region to sign for</td></tr>
 *   <tr><td>{@code s3.path-style-access}</td><td>{@code CAIRN_S3_PATH_STYLE_ACCESS}</td><td>{@code true}: the bucket
 *       in the path ({@code http://host/bucket/key}), as most S3-compatible servers want; default false</td></tr>
 *   <tr><td>{@code s3.access-key}, {@code s3.secret-key}</td><td>(the SDK's {@code AWS_ACCESS_KEY_ID},
 *       {@code AWS_SECRET_ACCESS_KEY})</td><td>static credentials, both or neither</td></tr>
 *   <tr><td>{@code s3.flexible-checksums}</td><td>{@code CAIRN_S3_FLEXIBLE_CHECKSUMS}</td><td>{@code false}: only
 *       the checksums a request requires (for servers that refuse the SDK's CRC trailers); {@code true}: whenever
 *       supported; not set: the SDK's setting ({@code AWS_REQUEST_CHECKSUM_CALCULATION})</td></tr>
 * </table>
 *
 * @param endpoint the server to talk to instead of AWS's endpoints
 * @param region the region to sign for
 * @param pathStyleAccess whether the bucket goes in the path rather than the host name
 * @param accessKey the access key of static credentials
 * @param secretKey the secret key of static credentials (never in {@link #toString()})
 * @param flexibleChecksums whether the SDK adds CRC checksums to requests and checks those of responses
 */
public record S3Settings(Optional<URI> endpoint, Optional<String> region, boolean pathStyleAccess,
        Optional<String> accessKey, Optional<String> secretKey, Optional<Boolean> flexibleChecksums) {

    /** Nothing set: everything from the AWS SDK's configuration. */
    public static final S3Settings DEFAULTS = new S3Settings(Optional.empty(), Optional.empty(), false,
            Optional.empty(), Optional.empty(), Optional.empty());

    /** The settings, by property name and environment variable. */
    enum Setting {
        ENDPOINT("s3.endpoint", "CAIRN_S3_ENDPOINT"),
        REGION("s3.region", "CAIRN_S3_REGION"),
        PATH_STYLE_ACCESS("s3.path-style-access", "CAIRN_S3_PATH_STYLE_ACCESS"),
        ACCESS_KEY("s3.access-key", null),
        SECRET_KEY("s3.secret-key", null),
        FLEXIBLE_CHECKSUMS("s3.flexible-checksums", "CAIRN_S3_FLEXIBLE_CHECKSUMS");

        private final String property;
        private final String variable;

        Setting(String property, String variable) {
            this.property = property;
            this.variable = variable;
        }

        /** The property's name, {@code s3.endpoint}. */
        String property() {
            return property;
        }
    }

    public S3Settings {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(accessKey, "accessKey");
        Objects.requireNonNull(secretKey, "secretKey");
        Objects.requireNonNull(flexibleChecksums, "flexibleChecksums");
        if (accessKey.isPresent() != secretKey.isPresent()) {
            throw new IllegalArgumentException("the access key and the secret key are set together ("
                    + Setting.ACCESS_KEY.property + " and " + Setting.SECRET_KEY.property + "), and only the "
                    + (accessKey.isPresent() ? "access" : "secret") + " key is set");
        }
        endpoint.ifPresent(uri -> checkEndpoint(Setting.ENDPOINT.property, uri));
    }

    /**
     * The settings in {@code properties}: the {@code s3.*} names above, other keys ignored.
     *
     * @throws IllegalArgumentException when a value is malformed or an {@code s3.} key is not one of these
     */
    public static S3Settings fromProperties(Map<String, String> properties) {
        properties.keySet().stream().filter(key -> key.startsWith("s3."))
                .filter(key -> Arrays.stream(Setting.values()).noneMatch(s -> s.property.equals(key)))
                .findFirst().ifPresent(key -> {
                    throw new IllegalArgumentException("unknown S3 setting " + key + "; the S3 settings are "
                            + Arrays.stream(Setting.values()).map(Setting::property).toList());
                });
        return parse(Setting::property, setting -> properties.get(setting.property));
    }

    /**
     * The settings in the environment variables {@code CAIRN_S3_ENDPOINT}, {@code CAIRN_S3_REGION},
     * {@code CAIRN_S3_PATH_STYLE_ACCESS} and {@code CAIRN_S3_FLEXIBLE_CHECKSUMS} (credentials come from the SDK's
     * own variables).
     *
     * @throws IllegalArgumentException when a value is malformed
     */
    public static S3Settings fromEnvironment(Map<String, String> environment) {
        return parse(setting -> setting.variable,
                setting -> setting.variable == null ? null : environment.get(setting.variable));
    }

    /** These settings with the endpoint {@code endpoint}. */
    public S3Settings withEndpoint(URI endpoint) {
        return new S3Settings(Optional.of(endpoint), region, pathStyleAccess, accessKey, secretKey,
                flexibleChecksums);
    }

    @Override
    public String toString() {
        return "S3Settings[endpoint=" + endpoint.map(URI::toString).orElse("(AWS)") + ", region="
                + region.orElse("(from the SDK)") + ", pathStyleAccess=" + pathStyleAccess + ", credentials="
                + accessKey.map(key -> "static " + key).orElse("(from the SDK)") + ", flexibleChecksums="
                + flexibleChecksums.map(String::valueOf).orElse("(from the SDK)") + "]";
    }

    /** The settings {@code raw} gives (null: not set), named in messages as {@code name} says. */
    private static S3Settings parse(Function<Setting, String> name, Function<Setting, String> raw) {
        Function<Setting, Optional<String>> value = setting -> Optional.ofNullable(raw.apply(setting))
                .map(String::strip).filter(text -> !text.isEmpty());
        Optional<URI> endpoint = value.apply(Setting.ENDPOINT)
                .map(text -> endpoint(name.apply(Setting.ENDPOINT), text));
        Optional<Boolean> pathStyle = value.apply(Setting.PATH_STYLE_ACCESS)
                .map(text -> bool(name.apply(Setting.PATH_STYLE_ACCESS), text));
        Optional<Boolean> checksums = value.apply(Setting.FLEXIBLE_CHECKSUMS)
                .map(text -> bool(name.apply(Setting.FLEXIBLE_CHECKSUMS), text));
        return new S3Settings(endpoint, value.apply(Setting.REGION), pathStyle.orElse(false),
                value.apply(Setting.ACCESS_KEY), value.apply(Setting.SECRET_KEY), checksums);
    }

    private static URI endpoint(String name, String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(name + " is not a URI: " + e.getMessage(), e);
        }
        return checkEndpoint(name, uri);
    }

    private static URI checkEndpoint(String name, URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw new IllegalArgumentException(name + " must be an http:// or https:// URI with a host, like "
                    + "http://localhost:9000, was \"" + uri + "\"");
        }
        return uri;
    }

    private static boolean bool(String name, String text) {
        if (text.equalsIgnoreCase("true")) {
            return true;
        }
        if (text.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException(name + " must be true or false, was \"" + text + "\"");
    }
}
