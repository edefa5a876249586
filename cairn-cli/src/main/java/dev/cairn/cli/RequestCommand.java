package dev.cairn.cli;

import dev.cairn.client.rest.RequestState;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code cairn request JOB ID}: what became of a request, by its request id (what {@code --detached} printed), from
 * {@code GET /jobs/{jobId}/savepoints/{requestId}}. Exit code 0 when it completed or is still in progress, 1 when it
 * failed or the coordinator does not know it.
 */
@Command(name = "request",
        description = "Shows what became of a request by its request id (what --detached and trigger print): "
                + "queued, triggered, completed with its checkpoint id and path, or failed with the reason: "
                + "GET /jobs/{id}/savepoints/{requestId} of the REST API (--rest-url). Exit code 0 when it completed "
                + "or is in progress, 1 when it failed or is unknown.")
final class RequestCommand extends RestReadCommand {

    @Parameters(index = "0", paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Parameters(index = "1", paramLabel = "ID", description = "The request id.")
    String requestId;

    @Override
    public Integer call() {
        List<String> problems = new ArrayList<>();
        CairnCli.requireText("JOB", jobId, problems);
        CairnCli.requireText("ID", requestId, problems);
        CairnCli.requireNoProblems(spec, problems);
        Optional<RequestState> state = answer(client().request(jobId, requestId));
        PrintWriter out = spec.commandLine().getOut();
        if (state.isEmpty()) {
            PrintWriter err = spec.commandLine().getErr();
            err.println(spec.qualifiedName() + ": the coordinator does not know request " + requestId + " of job '"
                    + jobId + "' (an unknown job or request id, one not processed yet, or one older than the newest "
                    + "100 it keeps)");
            err.flush();
            return 1;
        }
        RequestState s = state.get();
        if (format == Format.JSON) {
            AuditOutput.json(out, s);
        } else {
            out.println("request " + s.requestId() + " of job '" + jobId + "': " + s.stage());
            line(out, "type", s.checkpointType());
            line(out, "checkpoint id", s.checkpointId());
            line(out, "path", s.location());
            line(out, "failure", s.failed() ? s.failureMessage() + " (" + s.failureReason() + ")" : null);
        }
        out.flush();
        return s.failed() ? 1 : 0;
    }

    private static void line(PrintWriter out, String name, Object value) {
        if (value != null) {
            out.println(name + ": " + value);
        }
    }
}
