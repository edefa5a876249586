package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import dev.cairn.config.LayeredConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Malformed command lines: exit status 2 and a message naming the flag; nothing reaches Kafka. And where the task's
 * own Kafka client settings go.
 */
class PipelineWorkerMainTest {

    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    private int run(Map<String, String> environment, String... args) {
        CommandLine commandLine = PipelineWorkerMain.commandLine(environment);
        commandLine.setErr(new PrintWriter(err, true));
        commandLine.setOut(new PrintWriter(new StringWriter(), true));
        return commandLine.execute(args);
    }

    private List<String> valid() throws IOException {
        Path key = dir.resolve("job.key");
        Files.writeString(key, SigningKey.generate().toBase64() + "\n", StandardCharsets.US_ASCII);
        return new ArrayList<>(List.of("--role", "count", "--subtask", "1", "--job", "j", "--bootstrap-servers",
                "127.0.0.1:1", "--checkpoint-dir", dir.resolve("checkpoints").toString(), "--auth-key-file",
                key.toString()));
    }

    private int runWith(String flag, String value) throws IOException {
        List<String> args = valid();
        int at = args.indexOf(flag);
        args.set(at + 1, value);
        return run(Map.of(), args.toArray(String[]::new));
    }

    @Test
    void shouldExitTwoNamingTheRoleWhenItIsNoneOfTheTasks() throws IOException {
        assertThat(runWith("--role", "mapper")).isEqualTo(2);
        assertThat(err.toString()).contains("role").contains("mapper").contains("flag --role");
    }

    @Test
    void shouldExitTwoNamingTheSubtaskWhenItIsOutsideTheParallelism() throws IOException {
        assertThat(runWith("--subtask", "2")).isEqualTo(2);
        assertThat(err.toString()).contains("subtask").contains("flag --subtask");
    }

    @Test
    void shouldExitTwoNamingTheSubtaskWhenItIsNotANumber() throws IOException {
        assertThat(runWith("--subtask", "one")).isEqualTo(2);
        assertThat(err.toString()).contains("subtask").contains("one");
    }

    @Test
    void shouldExitTwoNamingTheJobWhenItCannotPrefixATopic() throws IOException {
        assertThat(runWith("--job", "a/b")).isEqualTo(2);
        assertThat(err.toString()).contains("job").contains("a/b");
    }

    @Test
    void shouldExitTwoNamingTheKeyFileWhenItHoldsNoKey() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.key"), "not a key");
        assertThat(runWith("--auth-key-file", bad.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("auth.key.file").contains("bad.key");
    }

    @Test
    void shouldExitTwoNamingTheTaskKafkaFlagWhenAnEntryIsNoPair() throws IOException {
        List<String> args = valid();
        args.addAll(List.of("--task-kafka", "delivery.timeout.ms=3000,request.timeout.ms"));

        assertThat(run(Map.of(), args.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("task.kafka (flag --task-kafka)").contains("entry 2")
                .contains("\"request.timeout.ms\", is not a key=value pair");
    }

    @Test
    void shouldExitTwoNamingTheTaskKafkaVariableWhenTheDeliveryTimeoutIsTooShort() throws IOException {
        assertThat(run(Map.of("CAIRN_PIPELINE_TASK_KAFKA", "delivery.timeout.ms=3000"),
                valid().toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("task.kafka (environment variable CAIRN_PIPELINE_TASK_KAFKA)")
                .contains("less than linger.ms");
    }

    @Test
    void shouldGiveTheTaskKafkaSettingsToTheTaskOnlyOverKafkaKeys() throws IOException {
        List<String> args = valid();
        Map<String, String> flags = new HashMap<>();
        for (int i = 0; i < args.size(); i += 2) {
            flags.put(args.get(i).substring(2).replace('-', '.'), args.get(i + 1));
        }
        flags.put(PipelineKeys.TASK_KAFKA, "delivery.timeout.ms=3000,request.timeout.ms=1500");
        PipelineWorkerMain.Settings settings = PipelineWorkerMain.settings(LayeredConfig.load(
                PipelineKeys.SCHEMA, flags, Map.of("CAIRN_PIPELINE_KAFKA_REQUEST_TIMEOUT_MS", "9000",
                        "CAIRN_PIPELINE_KAFKA_CLIENT_RACK", "r1"), Map.of(), null));

        assertThat(settings.clientConfig()).containsEntry("delivery.timeout.ms", "3000")
                .containsEntry("request.timeout.ms", "1500").containsEntry("client.rack", "r1")
                .containsEntry("bootstrap.servers", "127.0.0.1:1");
        assertThat(settings.sidecar().kafkaProperties()).containsEntry("request.timeout.ms", "9000")
                .containsEntry("client.rack", "r1").doesNotContainKey("delivery.timeout.ms");
    }

    @Test
    void shouldExitTwoNamingAMissingFlagAndHowToGiveIt() throws IOException {
        List<String> args = valid();
        int at = args.indexOf("--bootstrap-servers");
        args.remove(at + 1);
        args.remove(at);

        assertThat(run(Map.of(), args.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("bootstrap.servers is missing").contains("--bootstrap-servers")
                .contains("CAIRN_PIPELINE_BOOTSTRAP_SERVERS");
    }

    @Test
    void shouldExitTwoNamingAnUnknownFlag() throws IOException {
        List<String> args = valid();
        args.add("--parallelism=3");

        assertThat(run(Map.of(), args.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("--parallelism=3");
    }

    @Test
    void shouldExitTwoNamingTheEnvironmentVariableOfABadValue() throws IOException {
        List<String> args = valid();
        int at = args.indexOf("--role");
        args.remove(at + 1);
        args.remove(at);

        assertThat(run(Map.of("CAIRN_PIPELINE_ROLE", "nope"), args.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("CAIRN_PIPELINE_ROLE");
    }
}
