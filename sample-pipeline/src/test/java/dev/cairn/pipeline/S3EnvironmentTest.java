package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.kit.storage.S3Settings;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class S3EnvironmentTest {

    @Test
    void shouldGiveBackTheSettingsThroughTheWorkersEnvironment() {
        S3Settings settings = new S3Settings(Optional.of(URI.create("http://127.0.0.1:9000")), Optional.of("eu-west-1"),
                true, Optional.empty(), Optional.empty(), Optional.of(false));

        Map<String, String> variables = S3Environment.variables(settings);

        assertThat(S3Settings.fromEnvironment(variables)).isEqualTo(settings);
    }

    @Test
    void shouldHandStaticCredentialsToTheSdksOwnVariables() {
        S3Settings settings = S3Settings.fromProperties(Map.of("s3.access-key", "AKIA-TEST", "s3.secret-key", "s"));

        assertThat(S3Environment.variables(settings)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "AWS_ACCESS_KEY_ID", "AKIA-TEST", "AWS_SECRET_ACCESS_KEY", "s"));
    }

    @Test
    void shouldSetNoVariableForWhatTheSdkDecides() {
        assertThat(S3Environment.variables(S3Settings.DEFAULTS)).isEmpty();
    }
}
