package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The task's extra Kafka client settings: key=value pairs between commas, and what is refused with which message. */
class TaskClientSettingsTest {

    @Test
    void shouldReadPairsInOrderDroppingBlanksAndKeepingAnEqualsSignInAValue() {
        assertThat(TaskClientSettings.parse(" delivery.timeout.ms = 3000 , request.timeout.ms=1500,"
                + "sasl.mechanism=PLAIN,client.rack=a=b"))
                .containsExactly(Map.entry("delivery.timeout.ms", "3000"), Map.entry("request.timeout.ms", "1500"),
                        Map.entry("sasl.mechanism", "PLAIN"), Map.entry("client.rack", "a=b"));
    }

    @Test
    void shouldReadNothingFromABlankText() {
        assertThat(TaskClientSettings.parse("")).isEmpty();
        assertThat(TaskClientSettings.parse("  ")).isEmpty();
        assertThat(TaskClientSettings.parse(null)).isEmpty();
    }

    @Test
    void shouldNameAnEmptyEntry() {
        assertThatThrownBy(() -> TaskClientSettings.parse("linger.ms=1,,acks=1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("entry 2")
                .hasMessageContaining("is empty");
        assertThatThrownBy(() -> TaskClientSettings.parse("linger.ms=1,"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("entry 2 of \"linger.ms=1,\"");
    }

    @Test
    void shouldNameAnEntryWithoutAnEqualsSign() {
        assertThatThrownBy(() -> TaskClientSettings.parse("linger.ms=1,request.timeout.ms:1500"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("entry 2").hasMessageContaining("\"request.timeout.ms:1500\", is not a "
                        + "key=value pair");
    }

    @Test
    void shouldNameAnEntryWithoutAKeyOrWithoutAValue() {
        assertThatThrownBy(() -> TaskClientSettings.parse("=3000")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"=3000\", has no key");
        assertThatThrownBy(() -> TaskClientSettings.parse("linger.ms= ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"linger.ms=\", has no value");
    }

    @Test
    void shouldRefuseAKeyGivenTwice() {
        assertThatThrownBy(() -> TaskClientSettings.parse("linger.ms=1,linger.ms=2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sets linger.ms a second time");
    }

    @Test
    void shouldRefuseTheBootstrapServersWhichHaveTheirOwnKey() {
        assertThatThrownBy(() -> TaskClientSettings.parse("bootstrap.servers=127.0.0.1:9092"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("its own key, bootstrap.servers");
    }

    @Test
    void shouldRefuseADeliveryTimeoutBelowLingerPlusTheRequestTimeoutGivenOrDefault() {
        assertThatThrownBy(() -> TaskClientSettings.parse("delivery.timeout.ms=3000"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delivery.timeout.ms=3000, less than linger.ms")
                .hasMessageContaining("request.timeout.ms (30000)");
        assertThatThrownBy(() -> TaskClientSettings.parse("delivery.timeout.ms=3000,request.timeout.ms=1500,"
                + "linger.ms=1501")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("linger.ms (1501) + request.timeout.ms (1500)");
        assertThat(TaskClientSettings.parse("delivery.timeout.ms=3000,request.timeout.ms=1500")).hasSize(2);
    }

    @Test
    void shouldRefuseATimeoutThatIsNotANumber() {
        assertThatThrownBy(() -> TaskClientSettings.parse("delivery.timeout.ms=3s,request.timeout.ms=1500"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delivery.timeout.ms=3s, which is not a number of milliseconds");
    }

    @Test
    void shouldFormatWhatItReadsBack() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("delivery.timeout.ms", "3000");
        settings.put("request.timeout.ms", "1500");

        assertThat(TaskClientSettings.format(settings)).isEqualTo("delivery.timeout.ms=3000,request.timeout.ms=1500");
        assertThat(TaskClientSettings.parse(TaskClientSettings.format(settings))).isEqualTo(settings);
    }

    @Test
    void shouldRefuseToFormatAValueWithAComma() {
        assertThatThrownBy(() -> TaskClientSettings.format(Map.of("partition.assignment.strategy", "a,b")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("partition.assignment.strategy=a,b");
    }

    @Test
    void shouldRefuseSupervisorSettingsThatAWorkerWouldRefuse() {
        Path dir = Path.of("unused");
        assertThatThrownBy(() -> new PipelineProcesses.Settings("127.0.0.1:1", "j", CheckpointLocation.of(dir), dir,
                "cairn.", dir, "cp", List.of(), Map.of("delivery.timeout.ms", "3000"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("less than linger.ms");
    }
}
