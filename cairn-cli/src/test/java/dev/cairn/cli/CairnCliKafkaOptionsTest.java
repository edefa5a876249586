package dev.cairn.cli;

import static dev.cairn.cli.CairnCliRegisterTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.client.requests.SendFailedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CairnCliKafkaOptionsTest {

    @TempDir
    Path dir;

    @Test
    void shouldProduceIdempotentlyWithAcksAllWhenSendingARequest() throws Exception {
        Path config = Files.writeString(dir.resolve("client.properties"),
                "security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nclient.id=ops-laptop\n");

        CliRun run = CliRun.of("status", "--job", "orders", "--status", "RUNNING", "--bootstrap-servers", "k1:9092",
                "--topic-prefix", "prod.cairn.", "--kafka-config", config.toString(), "--send-timeout-ms", "4000");

        assertThat(run.exit).as(run.err).isZero();
        CliRun.Sent sent = run.sent.get(0);
        assertThat(sent.topic()).isEqualTo("prod.cairn.requests");
        assertThat(sent.timeout()).isEqualTo(Duration.ofMillis(4000));
        assertThat(sent.producerConfig())
                .containsEntry("bootstrap.servers", "k1:9092")
                .containsEntry("acks", "all")
                .containsEntry("enable.idempotence", "true")
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "PLAIN")
                .containsEntry("client.id", "ops-laptop")
                .containsEntry("max.block.ms", "4000")
                .containsEntry("delivery.timeout.ms", "4000");
    }

    @Test
    void shouldAcceptTheCommonFlagsWhenTheyComeBeforeTheSubcommand() {
        CliRun run = CliRun.of("--bootstrap-servers", "k2:9092", "--topic-prefix", "staging.", "trigger",
                "--job", "orders");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.sent.get(0).topic()).isEqualTo("staging.requests");
        assertThat(run.sent.get(0).producerConfig()).containsEntry("bootstrap.servers", "k2:9092");
    }

    @Test
    void shouldTakeTheBrokersFromTheKafkaConfigWhenNoFlagNamesThem() throws Exception {
        Path config = Files.writeString(dir.resolve("cloud.properties"), "bootstrap.servers=cloud:9092\n");

        assertThat(producerConfig("--kafka-config", config.toString()))
                .containsEntry("bootstrap.servers", "cloud:9092");
        assertThat(producerConfig("--kafka-config", config.toString(), "--bootstrap-servers", "flag:9092"))
                .containsEntry("bootstrap.servers", "flag:9092");
        assertThat(producerConfig())
                .containsEntry("bootstrap.servers", "localhost:9092")
                .containsEntry("client.id", "cairn-cli")
                .containsEntry("request.timeout.ms", "30000");
    }

    @Test
    void shouldPreferTheFlagToTheEnvironmentToTheConfigFileWhenAKeyIsGivenSeveralTimes() throws Exception {
        Path file = Files.writeString(dir.resolve("cli.properties"), "topic.prefix=file.\nsend.timeout.ms=2000\n"
                + "bootstrap.servers=file:9092\n");
        CliRun run = new CliRun().withEnvironment(CliRun.signing(Map.of("CAIRN_TOPIC_PREFIX", "env.",
                "CAIRN_SEND_TIMEOUT_MS", "3000")))
                .run("trigger", "--job", "orders", "--config", file.toString(), "--send-timeout-ms", "4000");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.sent.get(0).topic()).isEqualTo("env.requests");
        assertThat(run.sent.get(0).timeout()).isEqualTo(Duration.ofMillis(4000));
        assertThat(run.sent.get(0).producerConfig()).containsEntry("bootstrap.servers", "file:9092");
    }

    @Test
    void shouldNameTheEnvironmentVariableWhenItsValueIsNotANumber() {
        CliRun run = new CliRun().withEnvironment(CliRun.signing(Map.of("CAIRN_SEND_TIMEOUT_MS", "soon")))
                .run("trigger", "--job", "orders");

        assertRefused(run, "Invalid value soon for configuration send.timeout.ms: Not a number of type LONG "
                + "(environment variable CAIRN_SEND_TIMEOUT_MS)");
    }

    @Test
    void shouldKeepTheRequestTimeoutWithinTheSendTimeout() {
        assertThat(producerConfig("--send-timeout-ms", "1500"))
                .containsEntry("request.timeout.ms", "1500")
                .containsEntry("delivery.timeout.ms", "1500");
    }

    @Test
    void shouldRefuseAKafkaConfigWhenItWeakensAcks() throws Exception {
        Path config = Files.writeString(dir.resolve("weak.properties"), "acks=1\n");

        assertRefused(CliRun.of("trigger", "--job", "orders", "--kafka-config", config.toString()),
                "kafka.config (flag --kafka-config): " + config
                        + " sets acks=1, but a Cairn request must be written with acks=all");
    }

    @Test
    void shouldRefuseAKafkaConfigWhenItTurnsIdempotenceOffOrSetsTimeouts() throws Exception {
        Path noIdempotence = Files.writeString(dir.resolve("a.properties"), "enable.idempotence=false\n");
        Path timeout = Files.writeString(dir.resolve("b.properties"), "max.block.ms=100\n");
        Path transactional = Files.writeString(dir.resolve("c.properties"), "transactional.id=x\n");

        assertRefused(trigger("--kafka-config", noIdempotence.toString()), "sets enable.idempotence=false");
        assertRefused(trigger("--kafka-config", timeout.toString()),
                "sets max.block.ms, which the CLI derives from send.timeout.ms");
        assertRefused(trigger("--kafka-config", transactional.toString()), "sets transactional.id");
    }

    @Test
    void shouldNameTheKafkaConfigFileWhenItCannotBeRead() {
        assertRefused(CliRun.of("trigger", "--job", "orders", "--kafka-config", dir.resolve("missing").toString()),
                "kafka.config (flag --kafka-config): cannot read " + dir.resolve("missing"));
    }

    @Test
    void shouldNameTheKafkaConfigFileWhenItIsNotAPropertiesFile() throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.properties"), "sasl.jaas.config=\\u12zz\n");

        assertRefused(CliRun.of("trigger", "--job", "orders", "--kafka-config", broken.toString()),
                "broken.properties is not a properties file");
    }

    @Test
    void shouldRefuseTheRequestWhenKafkaCannotNameTheTopicPrefix() {
        assertRefused(CliRun.of("trigger", "--job", "orders", "--topic-prefix", "cairn/"),
                "topic.prefix (flag --topic-prefix): topic prefix 'cairn/' may contain only letters, digits");
    }

    @Test
    void shouldRefuseTheRequestWhenTheSendTimeoutIsNotPositive() {
        assertRefused(CliRun.of("trigger", "--job", "orders", "--send-timeout-ms", "0"),
                "Invalid value 0 for configuration send.timeout.ms: Value must be at least 1 (flag --send-timeout-ms)");
    }

    @Test
    void shouldExitWithOneAndSayWhatFailedWhenTheRequestIsNotAcknowledged() {
        CliRun run = new CliRun().failingWith(new SendFailedException("could not send the TriggerRequest", null))
                .run("trigger", "--job", "orders", "--request-id", "r-1");

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.SOFTWARE);
        assertThat(run.err).contains("cairn trigger: could not send the TriggerRequest")
                .contains("request id: r-1 (to retry, pass --request-id r-1");
        assertThat(run.out).doesNotContain("Sent");
    }

    @Test
    void shouldAskForASubcommandWhenNoneIsGiven() {
        CliRun run = CliRun.of("--bootstrap-servers", "k:9092");

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.err)
                .contains("Name what to do: register, trigger, savepoint, stop, resume, rescale, list, checkpoints, "
                        + "request, status, remove, keys or audit.");
    }

    @Test
    void shouldSuggestTheSubcommandWhenItIsMistyped() {
        CliRun run = CliRun.of("triger", "--job", "orders");

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.err).contains("Unmatched argument").contains("trigger");
    }

    private static CliRun trigger(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "trigger";
        all[1] = "--job";
        all[2] = "orders";
        System.arraycopy(args, 0, all, 3, args.length);
        return CliRun.of(all);
    }

    private static Map<String, Object> producerConfig(String... args) {
        CliRun run = trigger(args);
        assertThat(run.exit).as(run.err).isZero();
        return run.sent.get(0).producerConfig();
    }

    @Test
    void shouldDescribeEverySubcommandAndTheEnvironmentWhenAskedForHelp() {
        CliRun run = CliRun.of("--help");

        assertThat(run.exit).isZero();
        assertThat(run.out).contains("register", "trigger", "status", "CAIRN_BOOTSTRAP_SERVERS",
                "CAIRN_TOPIC_PREFIX", "--kafka-config", "Exit codes");
    }
}
