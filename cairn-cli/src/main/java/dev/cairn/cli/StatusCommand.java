package dev.cairn.cli;

import dev.cairn.client.requests.RequestSender.Delivery;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.RequestEnvelope;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cairn status}: produces a {@code JobStatusChange}. */
@Command(name = "status",
        description = "Changes a job's status: produces a JobStatusChange. Checkpoints are triggered only while "
                + "the job is RUNNING; leaving RUNNING aborts its pending checkpoints and queued requests.")
final class StatusCommand extends RequestSubcommand {

    @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Option(names = "--status", required = true, paramLabel = "STATUS",
            description = "The new status, one of ${COMPLETION-CANDIDATES}.")
    JobStatus status;

    @Override
    public Integer call() {
        JobStatusChange change = change();
        Delivery delivery = send(change.getJobId(), new RequestEnvelope(change));
        PrintWriter out = out();
        out.println("Sent JobStatusChange of job '" + change.getJobId() + "' to " + delivery.describe()
                + ": status " + change.getStatus() + ".");
        out.println(change.getStatus() == JobStatus.RUNNING
                ? "The coordinator (re)starts periodic checkpoints of the job."
                : "The coordinator stops triggering checkpoints of the job and aborts its pending checkpoints and "
                        + "queued requests.");
        out.flush();
        return 0;
    }

    /** The event the flags describe. */
    JobStatusChange change() {
        List<String> problems = new ArrayList<>();
        CairnCli.requireText("--job", jobId, problems);
        CairnCli.requireNoProblems(spec, problems);
        return JobStatusChange.newBuilder().setJobId(jobId).setStatus(status).setTimestampMs(cli.nowMs()).build();
    }
}
