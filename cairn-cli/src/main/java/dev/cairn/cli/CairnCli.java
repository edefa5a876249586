package dev.cairn.cli;

import dev.cairn.auth.SigningKey;
import dev.cairn.client.requests.KafkaRequestSender;
import dev.cairn.client.requests.RequestSender;
import dev.cairn.client.requests.RequestSender.Delivery;
import dev.cairn.client.requests.SendFailedException;
import dev.cairn.client.rest.CairnClient;
import dev.cairn.client.rest.RestException;
import dev.cairn.config.ConfigOptions;
import dev.cairn.config.LayeredConfig;
import dev.cairn.config.Release;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.io.PrintWriter;
import java.net.URI;
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
 * {@code cairn}: the command line of Cairn's users, shaped like Flink's {@code flink}. Each sending subcommand builds
 * one event from its flags, checks it with the coordinator's own rules ({@code JobSpecs.problems},
 * {@code TriggerRequests.problems}; each problem reported under the flag it came from) and sends it: produced to
 * {@code <prefix>requests} keyed by the job id through the {@code RequestSender} the REST API uses too, signed with
 * the requests key of {@code --requests-key-file}; or, with {@code --rest-url}, to the coordinator's REST API
 * ({@link RestRequests}, with the bearer token of {@code --token-file}). Its settings are {@link CliKeys}: flags,
 * {@code CAIRN_*} variables or a {@code --config} file.
 *
 * <ul>
 *   <li>{@code cairn register}: a {@code JobSpec} (tasks and checkpoint configuration; Kafka only);</li>
 *   <li>{@code cairn trigger}: a {@code TriggerRequest} for a checkpoint or savepoint now ({@code --wait}: and
 *       its outcome);</li>
 *   <li>{@code cairn savepoint --job J}: a savepoint, whose outcome it waits for (Flink: {@code flink savepoint});
 *       {@code savepoint list} and {@code savepoint dispose} list a job's savepoints and dispose of one;</li>
 *   <li>{@code cairn stop}: the {@code TriggerRequest} of a stop-with-savepoint, whose outcome it waits for;</li>
 *   <li>{@code cairn resume}, {@code rescale}, {@code remove}: a {@code RestoreJob}, {@code RescaleJob},
 *       {@code RemoveJob}, whose outcome it waits for ({@link AwaitedRequest});</li>
 *   <li>{@code cairn list}, {@code checkpoints}, {@code request}: the jobs, a job's checkpoint statistics, a
 *       request's outcome, read from the REST API;</li>
 *   <li>{@code cairn status}: a {@code JobStatusChange} (Kafka only);</li>
 *   <li>{@code cairn keys}: makes the keys that sign sidecar records and requests, and a new master key to rotate
 *       to (sends nothing);</li>
 *   <li>{@code cairn audit}: reads the journal directly (sends nothing): a checkpoint's timeline, the journal's
 *       invariants, a job's state as it was, the replay against the live coordinator ({@link AuditCommand}).</li>
 * </ul>
 *
 * <p>Exit codes are picocli's: 0 when the request was sent (and, for a command that waits, completed), 2 for a
 * malformed flag or configuration (nothing is sent), 1 when it could not be sent, failed or had no outcome in time.
 */
@Command(name = "cairn", versionProvider = Release.Version.class,
        description = "Cairn's command line, as Flink's flink command is Flink's: registers jobs; triggers "
                + "checkpoints and savepoints and stops jobs with a savepoint, waiting for the outcome; resumes, "
                + "rescales and removes jobs; lists jobs, a job's checkpoints and a request's outcome; lists and "
                + "disposes of savepoints; changes a job's status; makes the keys that sign records and requests; "
                + "audits the journal. Requests go to Kafka, or with --rest-url to the coordinator's REST API.",
        subcommands = {RegisterCommand.class, TriggerCommand.class, StopCommand.class, ResumeCommand.class,
                RescaleCommand.class, SavepointCommand.class, ListCommand.class, CheckpointsCommand.class,
                RequestCommand.class, StatusCommand.class, RemoveCommand.class, KeysCommand.class,
                AuditCommand.class},
        synopsisSubcommandLabel = "(register | trigger | savepoint | stop | resume | rescale | list | checkpoints "
                + "| request | status | remove | keys | audit)",
        footer = {"", "Examples:",
                "  export CAIRN_REQUESTS_KEY_FILE=requests.key   # or --requests-key-file on every command",
                "  cairn register --job orders --task source:1 --task map:2 --task sink:1 \\",
                "      --task-roles sink:ack,notify --interval-ms 2000 --timeout-ms 10000 \\",
                "      --storage file:///tmp/cairn",
                "  cairn savepoint --job orders --target s3://bucket/savepoints/sp-1",
                "  cairn savepoint --job orders --detached",
                "  cairn trigger --job orders --force --request-id nightly-2024-06-01",
                "  cairn trigger --job orders --checkpoint-type incremental --unaligned --wait",
                "  cairn stop --job orders --drain --target s3://bucket/savepoints/final --format native",
                "  cairn savepoint list --job orders",
                "  cairn resume --job orders --from-savepoint s3://bucket/savepoints/sp-1 --restore-mode no_claim",
                "  cairn rescale --job orders --parallelism map=4 --parallelism sink=2",
                "  cairn savepoint dispose --job orders --path s3://bucket/savepoints/sp-1",
                "  cairn status --job orders --status SUSPENDED",
                "  cairn remove --job orders",
                "  export CAIRN_REST_URL=http://coordinator:8081 CAIRN_TOKEN_FILE=ops.token   # REST instead of Kafka",
                "  cairn list",
                "  cairn checkpoints orders",
                "  cairn request orders nightly-2024-06-01",
                "  cairn keys generate --out master.key",
                "  cairn keys job --job orders --master-key-file master.key",
                "  cairn keys requests --master-key-file master.key --out requests.key",
                "  cairn keys rotate --master-key-file master.key --out master-2.key --overlap 24h",
                "  cairn audit timeline --job orders --checkpoint 42",
                "  cairn audit check",
                "",
                "Exit codes: 0 done (a request sent and acknowledged; savepoint, stop, trigger --wait, resume, "
                        + "rescale, savepoint dispose, remove: and completed), 2 malformed flags (nothing sent), 1 not "
                        + "sent (those that wait: or failed, refused, or no outcome in time; list, checkpoints, "
                        + "request: the REST API did not answer)."})
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

    @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print the version and exit.")
    boolean version;

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
            if (error instanceof SendFailedException || error instanceof RestException) {
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
                "Name what to do: register, trigger, savepoint, stop, resume, rescale, list, checkpoints, "
                        + "request, status, remove, keys or audit.");
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
        if (restUrl(command).isPresent()) {
            throw new ParameterException(command.commandLine(), "a " + envelope.getEvent().getClass().getSimpleName()
                    + " is sent over Kafka only: leave out --rest-url (and CAIRN_REST_URL)");
        }
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

    /** The REST API of {@code --rest-url}, empty when not given. */
    Optional<URI> restUrl(CommandSpec command) {
        return checked(command, () -> CliKeys.restUrl(settings(command)));
    }

    /** A client of the REST API of {@code --rest-url} with the token of {@code --token-file}, empty without one. */
    Optional<CairnClient> restClient(CommandSpec command) {
        return restUrl(command).map(url -> new CairnClient(url, token(command),
                Duration.ofMillis(settings(command).getLong(CliKeys.SEND_TIMEOUT_MS))));
    }

    /**
     * The same, for a command that reads only from the REST API.
     *
     * @throws ParameterException saying so when {@code --rest-url} is not given
     */
    CairnClient requireRest(CommandSpec command) {
        return restClient(command).orElseThrow(() -> new ParameterException(command.commandLine(),
                command.qualifiedName() + " reads the coordinator's REST API: give --rest-url URL (or set "
                        + CliKeys.SCHEMA.envName(CliKeys.REST_URL) + "), e.g. --rest-url http://coordinator:8081"));
    }

    /** The bearer token of {@code --token-file} or {@code CAIRN_REST_TOKEN}, {@code null} when none. */
    String token(CommandSpec command) {
        return checked(command, () -> CliKeys.token(settings(command), environment));
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
