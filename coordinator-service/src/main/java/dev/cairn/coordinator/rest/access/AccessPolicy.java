package dev.cairn.coordinator.rest.access;

import dev.cairn.coordinator.rest.ApiException;
import java.util.List;
import java.util.Locale;

/**
 * Who may do what through the REST API. Mutations (PUT, POST) need {@code Authorization: Bearer <token>}
 * with a token of the {@link BearerTokens} whose scope covers the job; without tokens the API is read-only.
 * Reads are open, unless {@link #readsNeedToken()}: then they need a token that covers the job too.
 * Health endpoints are always open.
 */
public final class AccessPolicy {

    private static final String ENABLE_MUTATIONS = "the REST API is read-only: start the coordinator with "
            + "--http-tokens-file (env CAIRN_HTTP_TOKENS_FILE) to allow PUT and POST with a bearer token";

    private final BearerTokens tokens;
    private final boolean readsNeedToken;

    private AccessPolicy(BearerTokens tokens, boolean readsNeedToken) {
        this.tokens = tokens;
        this.readsNeedToken = readsNeedToken;
    }

    /** Reads open, every mutation refused (403). */
    public static AccessPolicy readOnly() {
        return new AccessPolicy(null, false);
    }

    /**
     * Mutations for the holders of {@code tokens}; reads open unless {@code readsNeedToken}.
     */
    public static AccessPolicy withTokens(BearerTokens tokens, boolean readsNeedToken) {
        return new AccessPolicy(java.util.Objects.requireNonNull(tokens, "tokens"), readsNeedToken);
    }

    /** Whether GETs need a token too (then forwarded GETs pass the caller's on). */
    public boolean readsNeedToken() {
        return readsNeedToken;
    }

    /**
     * Checks a mutation of {@code jobId}.
     *
     * @param authorization every {@code Authorization} header of the request
     * @return the principal allowed to do it
     * @throws ApiException 401 for a missing, malformed or unknown token, 403 for a token whose scope does
     *     not cover the job or when the API is read-only
     */
    public String authorizeMutation(List<String> authorization, String jobId) {
        if (tokens == null) {
            throw ApiException.forbidden(ENABLE_MUTATIONS);
        }
        return authorize(authorization, jobId);
    }

    /**
     * Checks a read of {@code jobId}.
     *
     * @return the principal, or {@code null} when reads are open
     * @throws ApiException 401 or 403, as for mutations, when reads need a token
     */
    public String authorizeRead(List<String> authorization, String jobId) {
        return readsNeedToken ? authorize(authorization, jobId) : null;
    }

    /**
     * The jobs a caller may read, for listings such as {@code GET /jobs}: every job when reads are open.
     *
     * @throws ApiException 401 for a missing, malformed or unknown token when reads need a token
     */
    public JobScope readScope(List<String> authorization) {
        if (!readsNeedToken) {
            return JobScope.ALL;
        }
        return tokens.find(bearerToken(authorization))
                .orElseThrow(() -> ApiException.unauthorized("unknown bearer token")).scope();
    }

    /** How the log describes it: read-only, or whose tokens allow mutations (never the tokens). */
    @Override
    public String toString() {
        if (tokens == null) {
            return "read-only: no tokens file";
        }
        return "mutations for " + String.join(", ", tokens.principals())
                + (readsNeedToken ? "; reads need a token" : "; reads open");
    }

    private String authorize(List<String> authorization, String jobId) {
        BearerTokens.Holder holder = tokens.find(bearerToken(authorization)).orElseThrow(() ->
                ApiException.unauthorized("unknown bearer token"));
        if (!holder.scope().covers(jobId)) {
            throw ApiException.forbidden("principal '" + holder.principal() + "' may not act on job '" + jobId
                    + "' (its tokens file entry covers " + holder.scope() + ")");
        }
        return holder.principal();
    }

    /**
     * The token of the only {@code Authorization} header, which must read {@code Bearer <token>}.
     *
     * @throws ApiException 401 naming what is wrong
     */
    static String bearerToken(List<String> authorization) {
        if (authorization.isEmpty()) {
            throw ApiException.unauthorized("this request needs an 'Authorization: Bearer <token>' header");
        }
        if (authorization.size() > 1) {
            throw ApiException.unauthorized("more than one Authorization header; send exactly one, "
                    + "'Authorization: Bearer <token>'");
        }
        String value = authorization.get(0).strip();
        int space = value.indexOf(' ');
        String scheme = space < 0 ? value : value.substring(0, space);
        if (!scheme.toLowerCase(Locale.ROOT).equals("bearer")) {
            throw ApiException.unauthorized("the Authorization header uses the scheme '" + scheme
                    + "'; this API takes 'Authorization: Bearer <token>'");
        }
        String token = space < 0 ? "" : value.substring(space + 1).strip();
        if (token.isEmpty()) {
            throw ApiException.unauthorized("the Authorization header has no token after 'Bearer'");
        }
        if (!BearerTokens.TOKEN.matcher(token).matches()) {
            throw ApiException.unauthorized("malformed bearer token: one token of at least 16 characters "
                    + "A-Z a-z 0-9 - . _ ~ + / (then = padding) is expected after 'Bearer '");
        }
        return token;
    }
}
