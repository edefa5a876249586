package dev.cairn.sidecar.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.coordinator.testbed.LogConfigurationRun;
import dev.cairn.metrics.logging.JobLogContext;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sidecar's logback.xml, run as its jar runs it: JSON lines naming the job, and Kafka's warnings. */
class LogConfigurationTest {

    @Test
    void shouldWriteJsonLinesNamingTheJobAndKafkasWarningsWhenTheJsonFormatIsChosen() throws IOException {
        List<String> lines = LogConfigurationRun.run("json", context -> {
            JobLogContext.forThread("orders");
            context.getLogger("dev.cairn.sidecar.kafka.KafkaSidecar").info("Acknowledging checkpoint 3 for map#0");
            context.getLogger("org.apache.kafka.clients.producer.internals.Sender").warn("Got error produce response");
            context.getLogger("org.apache.kafka.clients.producer.ProducerConfig").info("ProducerConfig values: ...");
            JobLogContext.forThread(null);
        });

        assertThat(lines).hasSize(2);
        ObjectMapper json = new ObjectMapper();
        JsonNode ack = json.readTree(lines.get(0));
        assertThat(ack.path("formattedMessage").asText()).isEqualTo("Acknowledging checkpoint 3 for map#0");
        assertThat(ack.path("mdc").path("job").asText()).isEqualTo("orders");
        JsonNode kafka = json.readTree(lines.get(1));
        assertThat(kafka.path("level").asText()).isEqualTo("WARN");
        assertThat(kafka.path("loggerName").asText()).isEqualTo("org.apache.kafka.clients.producer.internals.Sender");
    }
}
