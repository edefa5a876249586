package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.sidecar.app.SidecarConfigCopies;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sidecar whose worker is reached through a command, with the real coordinator; and a sidecar that meets an
 * unreadable record on the control topic. The HTTP hook with a real worker: the sample worker's tests.
 */
class SidecarHooksIT extends SidecarTestBase {

    @Test
    void shouldCheckpointAWorkerReachedThroughACommand(@TempDir Path workerDir) throws Exception {
        String job = CoordinatorTestBed.uniqueJobId("command");
        Path script = Path.of("src/test/resources/it/worker-hook.sh").toAbsolutePath();
        bed.register(Events.job(job, 300, 10_000, "shell"));
        sidecars.start(SidecarConfigCopies.withCommandHook(sidecars.config(job, "shell", 0),
                List.of("sh", script.toString(), workerDir.toString()), Duration.ofSeconds(10)));

        CheckpointCompleted second = bed.awaitJournal(CheckpointCompleted.class,
                c -> c.getJobId().equals(job) && c.getCheckpointId() == 2);

        Path file = Path.of(URI.create(bed.states(second).get(0).getHandle().getLocation()));
        assertThat(Files.readString(file)).isEqualTo("state of shell-0 at 2\n");
        Path log = workerDir.resolve("notifications.log");
        Awaitility.await().atMost(CoordinatorTestBed.WAIT)
                .until(() -> Files.exists(log) && Files.readString(log).contains("complete 2 1"));
        List<String> lines = Files.readAllLines(log);
        assertThat(lines.get(0)).matches("restore none as attempt \\d+ [0-9a-f-]{36}");
        assertThat(lines.subList(1, lines.size())).startsWith("complete 1 -1");
    }

    @Test
    void shouldSkipAnUnreadableControlRecordAndKeepCheckpointing() throws Exception {
        String job = CoordinatorTestBed.uniqueJobId("garbage");
        RecordingHook hook = RecordingHook.acking();
        bed.register(Events.job(job, 300, 10_000, "counter"));
        sidecars.start(job, "counter", 0, hook);
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() == 1);

        try (KafkaProducer<String, byte[]> raw = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(), new ByteArraySerializer())) {
            raw.send(new ProducerRecord<>(bed.topics().control(), job, "not an event".getBytes(StandardCharsets.UTF_8)))
                    .get();
        }

        CheckpointCompleted later = bed.awaitJournal(CheckpointCompleted.class,
                c -> c.getJobId().equals(job) && c.getCheckpointId() == 3);
        assertThat(bed.states(later)).hasSize(1);
        Awaitility.await().atMost(CoordinatorTestBed.WAIT)
                .until(() -> hook.completions().stream().anyMatch(c -> c.checkpointId() >= 3));
    }
}
