package dev.cairn.cli;

import dev.cairn.auth.SigningKey;
import dev.cairn.client.requests.KafkaRequestSender;
import dev.cairn.client.requests.RequestSender;
import dev.cairn.client.requests.RequestSender.Delivery;
import dev.cairn.client.requests.SendFailedException;
import dev.cairn.config.ConfigOptions;
import dev.cairn.config.LayeredConfig;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code cairn}: the command line of Cairn's users. Each sending subcommand builds one event from its flags,
 * checks it with the coordinator's own rules ({@code JobSpecs.problems}, {@code TriggerRequests.problems}; each
 * problem reported under the flag it came from), produces it to {@code <prefix>requests} keyed by the job id
 * through the {@code RequestSender} the REST API uses too, signed with the requests key of {@code --requests-key-file},
 * waits for the broker's acknowledgement and prints what it sent. Its settings (bootstrap servers, topic prefix,
 * Kafka client file, send timeout, requests key) are
 * {@link CliKeys}: flags, {@code CAIRN_*} variables or a {@code --config} file.
 *
 * <ul>
 *   <li>{@code cairn register}: a {@code JobSpec} (tasks and checkpoint configuration);</li>
 *   <li>{@code cairn trigger}: a {@code TriggerRequest} for a checkpoint or savepoint now;</li>
 *   <li>{@code cairn stop}: the {@code TriggerRequest} of a stop-with-savepoint;</li>
 *   <li>{@code cairn status}: a {@code JobStatusChange};</li>
 *   <li>{@code cairn resume}: a {@code RestoreJob}, whose outcome it waits for ({@link Outcomes});</li>
 *   <li>{@code cairn rescale}: a {@code RescaleJob} (new parallelism for some of a job's tasks), whose outcome it
 *       waits for;</li>
 *   <li>{@code cairn savepoint}: lists a job's savepoints (from the journal) or disposes of one;</li>
 *   <li>{@code cairn remove}: a {@code RemoveJob} (a job that is not RUNNING leaves the stores), whose outcome it
 *       waits for;</li>
 *   <li>{@code cairn keys}: makes the keys that sign sidecar records and requests, and a new master key to rotate
 *       to (sends nothing);</li>
 *   <li>{@code cairn audit}: reads the journal directly (sends nothing): a checkpoint's timeline, the journal's
 *       invariants, a job's state as it was, the replay against the live coordinator ({@link AuditCommand}).</li>
 * </ul>
 *
 * <p>Exit codes are picocli's: 0 when the broker acknowledged the event, 2 for a malformed flag or
 * configuration (nothing is sent), 1 when the event could not be sent.
 */
@Command(name = "cairn",
        description = "Produces Cairn requests to Kafka: register a job, trigger a checkpoint or savepoint, "
                + "stop a job with a savepoint and resume it from one, change a job's parallelism, list and dispose of "
                + "savepoints, change a job's status, remove a job; audits the journal.",
        subcommands = {RegisterCommand.class, TriggerCommand.class, StopCommand.class, ResumeCommand.class,
                RescaleCommand.class, SavepointCommand.class, StatusCommand.class, RemoveCommand.class,
                KeysCommand.class, AuditCommand.class},
        synopsisSubcommandLabel = "(register | trigger | stop | resume | rescale | savepoint | status | remove | keys "
                + "| audit)",
        footer = {"", "Examples:",
                "  export CAIRN_REQUESTS_KEY_FILE=requests.key   # or --requests-key-file on every command",
                "  cairn register --job orders --task source:1 --task map:2 --task sink:1 \\",
                "      --task-roles sink:ack,notify --interval-ms 2000 --timeout-ms 10000 \\",
                "      --storage file:///tmp/cairn",
                "  cairn trigger --job orders --savepoint --target s3://bucket/savepoints/sp-1",
                "  cairn trigger --job orders --force --request-id nightly-2024-06-01",
                "  cairn trigger --job orders --checkpoint-type incremental --unaligned",
                "  cairn stop --job orders --drain --target s3://bucket/savepoints/final --format native",
                "  cairn savepoint list --job orders",
                "  cairn resume --job orders --from-savepoint s3://bucket/savepoints/sp-1 --restore-mode no_claim",
                "  cairn rescale --job orders --parallelism map=4 --parallelism sink=2",
                "  cairn savepoint dispose --job orders --path s3://bucket/savepoints/sp-1",
                "  cairn status --job orders --status SUSPENDED",
                "  cairn remove --job orders",
                "  cairn keys generate --out master.key",
                "  cairn keys job --job orders --master-key-file master.key",
                "  cairn keys requests --master-key-file master.key --out requests.key",
                "  cairn keys rotate --master-key-file master.key --out master-2.key --overlap 24h",
                "  cairn audit timeline --job orders --checkpoint 42",
                "  cairn audit check",
                "",
                "Exit codes: 0 sent and acknowledged (resume, rescale, savepoint dispose, remove: and completed), 2 "
                        + "malformed flags (nothing sent), 1 not sent (resume, rescale, savepoint dispose, remove: or "
                        + "refused, or no outcome in time)."})
public final class CairnCli implements Runnable {

    /** The requester recorded in every TriggerRequest the CLI produces. */
    public static final String REQUESTER = "cli";

    static {
        // Avro 1.12 instantiates only trusted classes, also for the defaults a builder fills in (the enums of
        // CheckpointConfig and TriggerRequest); making a serde trusts Cairn's (see AvroEventSerde).
        CairnSerdes.requests();
    }

    @Option(names = {"-h", "--help"}, usageHelp = true, scope = ScopeType.INHERIT,
            description = "Show this help and exit.")
    boolean help;

    @Spec
    CommandSpec spec;

    private final RequestSender.Factory senders;
    private Outcomes outcomes = Outcomes::kafka;
    private final Clock clock;
    private final Map<String, String> environment;
    private ConfigOptions options;
    private LayeredConfig settings;

    /** A CLI that produces to Kafka. */
    public CairnCli() {
        this(KafkaRequestSender::new, Clock.systemUTC());
    }

    /** A CLI that hands its requests to {@code senders}, stamping them with {@code clock}. */
    CairnCli(RequestSender.Factory senders, Clock clock) {
        this(senders, clock, System.getenv());
    }

    /** The same, reading {@code environment} instead of the process's. */
    CairnCli(RequestSender.Factory senders, Clock clock, Map<String, String> environment) {
        this.senders = senders;
        this.clock = clock;
        this.environment = Map.copyOf(environment);
    }

    /** Runs the CLI and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The {@code cairn} command line, producing to Kafka. */
    public static CommandLine commandLine() {
        return commandLine(new CairnCli());
    }

    /** The command line of {@code cli}, with short error messages and the exit codes described above. */
    static CommandLine commandLine(CairnCli cli) {
        return commandLine(cli, CommandLine.defaultFactory());
    }

    /** The same, its subcommands made by {@code factory} (tests hand {@code cairn audit} a journal in memory). */
    static CommandLine commandLine(CairnCli cli, CommandLine.IFactory factory) {
        CommandLine commandLine = new CommandLine(cli, factory);
        cli.options = ConfigOptions.addTo(commandLine.getCommandSpec(), CliKeys.SCHEMA, ScopeType.INHERIT);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setParameterExceptionHandler(CairnCli::shortUsageError);
        commandLine.setExecutionExceptionHandler((error, cmd, parsed) -> {
            if (error instanceof IllegalArgumentException) {
                cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + error.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            if (error instanceof SendFailedException) {
                cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + error.getMessage());
                return CommandLine.ExitCode.SOFTWARE;
            }
            throw error;
        });
        return commandLine;
    }

    /** The problem as given, and where to read about the flags; no page-long usage after every typo. */
    private static int shortUsageError(ParameterException error, String[] args) {
        CommandLine cmd = error.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println(error.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(error, err);
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the flags.");
        return CommandLine.ExitCode.USAGE;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "Name what to send: register, trigger, stop, resume, rescale, savepoint, status or remove.");
    }

    /** Waits for outcomes through {@code watches} instead of the journal (tests). */
    CairnCli withOutcomes(Outcomes watches) {
        this.outcomes = watches;
        return this;
    }

    /**
     * A watch of the journal from its end, for the outcome of a request about to be sent.
     *
     * @throws ParameterException when a common setting is malformed or the journal cannot be read (nothing is sent)
     */
    Outcomes.Watch watchOutcomes(CommandSpec command) {
        CairnTopics topics = topics(command);
        Map<String, Object> config = new HashMap<>(clientSettings(command).settings());
        return checked(command, () -> outcomes.watch(config, topics.journal()));
    }

    /** The time stamped on the events. */
    long nowMs() {
        return clock.millis();
    }

    /**
     * Checks the common settings and sends one request keyed by {@code jobId}.
     *
     * @param command the subcommand, for error messages naming its flags
     * @throws ParameterException when a common setting is malformed (nothing is sent)
     * @throws SendFailedException when the broker did not acknowledge the request
     */
    Delivery send(CommandSpec command, String jobId, RequestEnvelope envelope) {
        CairnTopics topics = topics(command);
        Duration timeout = Duration.ofMillis(settings(command).getLong(CliKeys.SEND_TIMEOUT_MS));
        Map<String, Object> producerConfig = checked(command, () -> ProducerSettings.of(clientSettings(command),
                timeout));
        Optional<SigningKey> requestsKey = checked(command, () -> CliKeys.requestsKey(settings(command)));
        try (RequestSender sender = senders.open(producerConfig, topics.requests(), timeout, requestsKey)) {
            return sender.send(jobId, envelope);
        } catch (SendFailedException e) {
            throw new SendFailedException(e.getMessage() + " (--send-timeout-ms " + timeout.toMillis() + ")"
                    + System.lineSeparator() + "Check that the brokers are reachable, that the --kafka-config "
                    + "settings (security) are right, and that the topic exists (the coordinator creates it at "
                    + "start-up; check --topic-prefix).", e.getCause());
        }
    }

    /** The topic names, with a malformed prefix reported as a flag error. */
    CairnTopics topics(CommandSpec command) {
        LayeredConfig config = settings(command);
        return checked(command, () -> {
            try {
                return new CairnTopics(config.getString(CliKeys.TOPIC_PREFIX));
            } catch (IllegalArgumentException e) {
                throw config.problem(CliKeys.TOPIC_PREFIX, e.getMessage());
            }
        });
    }

    /** The Kafka client settings of the common keys ({@link CliKeys#clientSettings}). */
    CliKeys.ClientSettings clientSettings(CommandSpec command) {
        return checked(command, () -> CliKeys.clientSettings(settings(command)));
    }

    /** The common settings: flags, environment, {@code --config} file; read once. */
    private LayeredConfig settings(CommandSpec command) {
        if (settings == null) {
            settings = checked(command, () -> options.load(environment));
        }
        return settings;
    }

    /** What {@code reading} returns, a malformed setting reported as a flag error of {@code command}. */
    private static <T> T checked(CommandSpec command, Supplier<T> reading) {
        try {
            return reading.get();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage(), e);
        }
    }

    /** Fails with every problem at once, one per line, when there is any. */
    static void requireNoProblems(CommandSpec command, List<String> problems) {
        if (!problems.isEmpty()) {
            throw new ParameterException(command.commandLine(), String.join(System.lineSeparator(), problems));
        }
    }

    /** Checks that a required text flag is not blank. */
    static void requireText(String flag, String value, List<String> problems) {
        if (value == null || value.isBlank()) {
            problems.add(flag + " must not be blank");
        }
    }
}
