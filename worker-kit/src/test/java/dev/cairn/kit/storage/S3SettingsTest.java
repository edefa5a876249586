package dev.cairn.kit.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** S3 settings from properties and from the environment: what they read, and how they refuse malformed values. */
class S3SettingsTest {

    @Test
    void shouldReadEverySettingWhenGivenProperties() {
        // when
        S3Settings settings = S3Settings.fromProperties(Map.of("s3.endpoint", "http://127.0.0.1:9000",
                "s3.region", "eu-west-1", "s3.path-style-access", "TRUE", "s3.access-key", "AK",
                "s3.secret-key", "SK", "s3.flexible-checksums", "false", "kafka.bootstrap", "ignored"));

        // then
        assertThat(settings).isEqualTo(new S3Settings(Optional.of(URI.create("http://127.0.0.1:9000")),
                Optional.of("eu-west-1"), true, Optional.of("AK"), Optional.of("SK"), Optional.of(false)));
    }

    @Test
    void shouldLeaveEverythingToTheSdkWhenNothingIsSet() {
        assertThat(S3Settings.fromProperties(Map.of())).isEqualTo(S3Settings.DEFAULTS);
        assertThat(S3Settings.fromEnvironment(Map.of("PATH", "/usr/bin"))).isEqualTo(S3Settings.DEFAULTS);
        assertThat(S3Settings.fromEnvironment(Map.of("CAIRN_S3_ENDPOINT", " ", "CAIRN_S3_REGION", "")))
                .as("empty values are not set").isEqualTo(S3Settings.DEFAULTS);
    }

    @Test
    void shouldReadTheCairnVariablesWhenGivenTheEnvironment() {
        // when
        S3Settings settings = S3Settings.fromEnvironment(Map.of("CAIRN_S3_ENDPOINT", "https://minio.local",
                "CAIRN_S3_REGION", "us-east-2", "CAIRN_S3_PATH_STYLE_ACCESS", "true",
                "CAIRN_S3_FLEXIBLE_CHECKSUMS", "true", "AWS_ACCESS_KEY_ID", "left to the SDK"));

        // then
        assertThat(settings.endpoint()).contains(URI.create("https://minio.local"));
        assertThat(settings.region()).contains("us-east-2");
        assertThat(settings.pathStyleAccess()).isTrue();
        assertThat(settings.flexibleChecksums()).contains(true);
        assertThat(settings.accessKey()).as("credentials come from the SDK's own variables").isEmpty();
    }

    @Test
    void shouldNameTheSettingWhenTheEndpointIsNotAUri() {
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.endpoint", "http://bad host:9000")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("s3.endpoint is not a URI");
        assertThatThrownBy(() -> S3Settings.fromEnvironment(Map.of("CAIRN_S3_ENDPOINT", "http://[::1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("CAIRN_S3_ENDPOINT is not a URI");
    }

    @Test
    void shouldRefuseAnEndpointWithoutHttpAndAHost() {
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.endpoint", "localhost:9000")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("s3.endpoint must be an http:// or https:// URI with a host, like http://localhost:9000, "
                        + "was \"localhost:9000\"");
        assertThatThrownBy(() -> S3Settings.fromEnvironment(Map.of("CAIRN_S3_ENDPOINT", "ftp://files")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CAIRN_S3_ENDPOINT must be");
    }

    @Test
    void shouldNameTheSettingAndTheValueWhenABooleanIsMalformed() {
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.path-style-access", "yes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("s3.path-style-access must be true or false, was \"yes\"");
        assertThatThrownBy(() -> S3Settings.fromEnvironment(Map.of("CAIRN_S3_FLEXIBLE_CHECKSUMS", "1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CAIRN_S3_FLEXIBLE_CHECKSUMS must be true or false, was \"1\"");
    }

    @Test
    void shouldRefuseAnUnknownS3SettingWhenGivenProperties() {
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.endpiont", "http://x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown S3 setting s3.endpiont")
                .hasMessageContaining("s3.endpoint");
    }

    @Test
    void shouldRefuseAnAccessKeyWithoutASecretKey() {
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.access-key", "AK")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("s3.secret-key")
                .hasMessageContaining("only the access key is set");
    }

    @Test
    void shouldNeverShowTheSecretKeyWhenPrinted() {
        S3Settings settings = S3Settings.fromProperties(Map.of("s3.access-key", "AK", "s3.secret-key", "hush-hush"));

        assertThat(settings.toString()).contains("static AK").doesNotContain("hush-hush");
    }
}
