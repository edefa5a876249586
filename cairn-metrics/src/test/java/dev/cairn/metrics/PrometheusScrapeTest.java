package dev.cairn.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PrometheusScrapeTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @AfterEach
    void close() {
        registry.close();
    }

    @Test
    void shouldAnswerPrometheusTextWhenTheRequestHasNoAcceptHeader() {
        registry.counter("cairn.things").increment();

        PrometheusScrape scrape = PrometheusScrape.of(registry, null);

        assertThat(scrape.contentType()).isEqualTo(PrometheusScrape.TEXT_004);
        assertThat(new String(scrape.body(), StandardCharsets.UTF_8)).contains("cairn_things_total 1.0")
                .doesNotContain("# EOF");
    }

    @Test
    void shouldAnswerOpenMetricsWhenTheAcceptHeaderNamesIt() {
        registry.counter("cairn.things").increment();

        PrometheusScrape scrape = PrometheusScrape.of(registry,
                "application/openmetrics-text; version=1.0.0, text/plain;q=0.5");

        assertThat(scrape.contentType()).isEqualTo(PrometheusScrape.OPENMETRICS_1);
        assertThat(new String(scrape.body(), StandardCharsets.UTF_8)).contains("cairn_things_total 1.0")
                .endsWith("# EOF\n");
    }

    @Test
    void shouldAnswerPrometheusTextWhenTheAcceptHeaderAsksForSomethingElse() {
        PrometheusScrape scrape = PrometheusScrape.of(registry, "application/json");

        assertThat(scrape.contentType()).isEqualTo(PrometheusScrape.TEXT_004);
    }
}
