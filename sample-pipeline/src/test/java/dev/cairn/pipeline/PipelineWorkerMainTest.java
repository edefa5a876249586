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
    void shouldExitTwoNamingTheSubtaskWhenItIsNotBelowTheGivenParallelism() throws IOException {
        List<String> args = valid();
        args.addAll(List.of("--subtask", "3", "--parallelism", "3"));
        args.subList(2, 4).clear();

        assertThat(run(Map.of(), args.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("subtask (flag --subtask)").contains("runs 3 subtasks");
    }

    @Test
    void shouldExitTwoNamingTheParallelismWhenItIsNotOneToTheMaxParallelism() throws IOException {
        List<String> args = valid();
        args.addAll(List.of("--parallelism", "0"));
        assertThat(run(Map.of(), args.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("parallelism").contains("0");

        List<String> upstream = valid();
        upstream.addAll(List.of("--upstream-parallelism", "129"));
        assertThat(run(Map.of(), upstream.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("upstream.parallelism").contains("129");
    }

    @Test
    void shouldRunTheRolesTaskWithTheGivenParallelismAndItsUpstreams() throws IOException {
        List<String> args = valid();
        args.addAll(List.of("--parallelism", "3", "--upstream-parallelism", "1"));
        Map<String, String> flags = new HashMap<>();
        for (int i = 0; i < args.size(); i += 2) {
            flags.put(args.get(i).substring(2).replace('-', '.'), args.get(i + 1));
        }
        PipelineWorkerMain.Settings count = PipelineWorkerMain.settings(LayeredConfig.load(PipelineKeys.SCHEMA,
                flags, Map.of(), Map.of(), null));
        flags.put(PipelineKeys.ROLE, "sink");
        PipelineWorkerMain.Settings sink = PipelineWorkerMain.settings(LayeredConfig.load(PipelineKeys.SCHEMA,
                flags, Map.of(), Map.of(), null));

        assertThat(count.parallelism().count()).isEqualTo(3);
        assertThat(count.parallelism().source()).isEqualTo(1);
        assertThat(sink.parallelism().sink()).isEqualTo(3);
        assertThat(sink.parallelism().count()).isEqualTo(1);
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
        args.add("--replicas=3");

        assertThat(run(Map.of(), args.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("--replicas=3");
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

    private List<String> withLocation(String location) throws IOException {
        List<String> args = valid();
        int at = args.indexOf("--checkpoint-dir");
        args.set(at, "--checkpoint-location");
        args.set(at + 1, location);
        return args;
    }

    private PipelineWorkerMain.Settings settings(List<String> args, Map<String, String> environment) {
        Map<String, String> flags = new HashMap<>();
        for (int i = 0; i < args.size(); i += 2) {
            flags.put(args.get(i).substring(2).replace('-', '.'), args.get(i + 1));
        }
        return PipelineWorkerMain.settings(LayeredConfig.load(PipelineKeys.SCHEMA, flags, environment, Map.of(),
                null), environment);
    }

    @Test
    void shouldExitTwoNamingTheCheckpointLocationWhenItIsNoS3OrFileUri() throws IOException {
        assertThat(run(Map.of(), withLocation("s3:/cairn/checkpoints").toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("checkpoint.location (flag --checkpoint-location)")
                .contains("\"s3:/cairn/checkpoints\" names no bucket")
                .contains("s3://bucket/prefix location or a file: URI");
    }

    @Test
    void shouldExitTwoNamingTheVariableWhenTheCheckpointLocationHasAnUnknownScheme() throws IOException {
        List<String> args = withLocation("unused");
        int at = args.indexOf("--checkpoint-location");
        args.remove(at + 1);
        args.remove(at);

        assertThat(run(Map.of("CAIRN_PIPELINE_CHECKPOINT_LOCATION", "gs://cairn/checkpoints"),
                args.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("checkpoint.location (environment variable "
                + "CAIRN_PIPELINE_CHECKPOINT_LOCATION)").contains("the scheme gs");
    }

    @Test
    void shouldExitTwoWhenBothACheckpointDirectoryAndALocationAreGiven() throws IOException {
        List<String> args = valid();
        args.addAll(List.of("--checkpoint-location", "s3://cairn/checkpoints"));

        assertThat(run(Map.of(), args.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("checkpoint.location (flag --checkpoint-location) and checkpoint.dir "
                + "(flag --checkpoint-dir) are both set");
    }

    @Test
    void shouldExitTwoSayingHowToGiveTheCheckpointStorageWhenNoneIsGiven() throws IOException {
        List<String> args = valid();
        int at = args.indexOf("--checkpoint-dir");
        args.remove(at + 1);
        args.remove(at);

        assertThat(run(Map.of(), args.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("the checkpoint storage is missing").contains("--checkpoint-location")
                .contains("CAIRN_PIPELINE_CHECKPOINT_LOCATION").contains("checkpoint.dir");
    }

    @Test
    void shouldExitTwoNamingTheS3VariableWhenTheEndpointIsNoUrl() throws IOException {
        assertThat(run(Map.of("CAIRN_S3_ENDPOINT", "ftp://127.0.0.1:9000"),
                withLocation("s3://cairn/checkpoints").toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("checkpoint.location (flag --checkpoint-location) is "
                + "s3://cairn/checkpoints, but the S3 settings").contains("CAIRN_S3_ENDPOINT must be an http:// "
                + "or https:// URI");
    }

    @Test
    void shouldReadTheS3SettingsFromTheEnvironmentForAnS3Location() throws IOException {
        PipelineWorkerMain.Settings settings = settings(withLocation("s3://cairn/checkpoints/"), Map.of(
                "CAIRN_S3_ENDPOINT", "http://127.0.0.1:9000", "CAIRN_S3_PATH_STYLE_ACCESS", "true"));

        assertThat(settings.checkpoints().uri()).isEqualTo("s3://cairn/checkpoints");
        assertThat(settings.s3().endpoint()).hasValue(java.net.URI.create("http://127.0.0.1:9000"));
        assertThat(settings.s3().pathStyleAccess()).isTrue();
    }

    @Test
    void shouldIgnoreTheS3VariablesAndCreateTheDirectoryForAFileLocation() throws IOException {
        Path checkpoints = dir.resolve("file-base");
        PipelineWorkerMain.Settings settings = settings(withLocation(checkpoints.toUri().toString()),
                Map.of("CAIRN_S3_ENDPOINT", "not a url"));

        assertThat(settings.checkpoints().directory()).isEqualTo(checkpoints);
        assertThat(settings.s3()).isEqualTo(dev.cairn.kit.storage.S3Settings.DEFAULTS);
        assertThat(checkpoints).isDirectory();
    }
}
