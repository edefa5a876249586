package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.coordinator.testbed.LogConfigurationRun;
import dev.cairn.metrics.logging.JobLogContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The coordinator's logback.xml, run as the jar runs it: its formats, the job of each line, Kafka's warnings. */
class LogConfigurationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldWriteOneParseableJsonObjectPerLineWithTheJobWhenTheJsonFormatIsChosen() {
        List<String> lines = LogConfigurationRun.run("json", context -> {
            try (JobLogContext.Scope job = JobLogContext.of("orders")) {
                context.getLogger("dev.cairn.coordinator.CheckpointCoordinator")
                        .info("Completed checkpoint {} for job {}", 7, "orders");
            }
            context.getLogger("dev.cairn.coordinator.app.CoordinatorMain").warn("no job here");
        });

        assertThat(lines).hasSize(2);
        JsonNode completed = parse(lines.get(0));
        assertThat(completed.path("level").asText()).isEqualTo("INFO");
        assertThat(completed.path("loggerName").asText()).isEqualTo("dev.cairn.coordinator.CheckpointCoordinator");
        assertThat(completed.path("formattedMessage").asText()).isEqualTo("Completed checkpoint 7 for job orders");
        assertThat(completed.path("mdc").path("job").asText()).isEqualTo("orders");
        assertThat(completed.path("timestamp").asLong()).isPositive();
        assertThat(parse(lines.get(1)).path("mdc").path("job").isMissingNode())
                .as("the job's scope ended with its command").isTrue();
    }

    @Test
    void shouldShowKafkasWarningsAndHideItsInfoLines() {
        List<String> lines = LogConfigurationRun.run(null, context -> {
            context.getLogger("org.apache.kafka.clients.NetworkClient").warn("Connection to node 1 could not be made");
            context.getLogger("org.apache.kafka.streams.KafkaStreams").error("stream thread died");
            context.getLogger("org.apache.kafka.clients.consumer.ConsumerConfig").info("ConsumerConfig values: ...");
        });

        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} WARN  NetworkClient - Connection to node 1 "
                + "could not be made");
        assertThat(lines.get(1)).contains("ERROR KafkaStreams - stream thread died");
    }

    @Test
    void shouldLogAsTextAndSayWhyWhenTheFormatIsUnknown() {
        List<String> lines = LogConfigurationRun.run("xml", context ->
                context.getLogger("dev.cairn.coordinator.CheckpointCoordinator").info("Triggering checkpoint 1"));

        assertThat(lines).singleElement().asString().endsWith("INFO  CheckpointCoordinator - Triggering checkpoint 1");
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException("not a JSON line: " + line, e);
        }
    }
}
