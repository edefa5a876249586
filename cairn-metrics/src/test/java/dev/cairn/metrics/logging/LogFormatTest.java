package dev.cairn.metrics.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LogFormatTest {

    private static String appender(Map<String, String> properties, Map<String, String> environment) {
        return new LogFormat(properties::get, environment::get).getPropertyValue();
    }

    @Test
    void shouldLogTextWhenNothingChoosesAFormat() {
        assertThat(appender(Map.of(), Map.of())).isEqualTo("CAIRN_TEXT");
    }

    @Test
    void shouldLogJsonWhenTheEnvironmentAsksForIt() {
        assertThat(appender(Map.of(), Map.of(LogFormat.VARIABLE, "JSON"))).isEqualTo("CAIRN_JSON");
    }

    @Test
    void shouldPreferTheSystemPropertyToTheEnvironment() {
        assertThat(appender(Map.of(LogFormat.PROPERTY, "text"), Map.of(LogFormat.VARIABLE, "json")))
                .isEqualTo("CAIRN_TEXT");
    }

    @Test
    void shouldFallBackToTextWhenTheFormatIsUnknown() {
        assertThat(appender(Map.of(), Map.of(LogFormat.VARIABLE, "logfmt"))).isEqualTo("CAIRN_TEXT");
    }
}
