// Package sandbox is the project's own implementation of the token
// distribution service, with the gaps of its interface filled as
// docs/deployment.md says: an http.Handler serving the administration group under
// /api/external/v1/ and the portal group under /api/v2/{portalId}/ and
// /api/{portalId}/parameters/stake, on seeded, deterministic data. The
// client, the dashboard, integrators and tests run against it. It shares no
// code with the client (allot/api): it is a second reading of the same
// decisions, so that a bug in one does not hide in the other. A comment's
// D1 to D18 is an entry of docs/deployment.md.
//
// # Data
//
// Seed lays out the same records with the same ids (version 5 UUIDs of
// their names) on every start, dated around the UTC day the sandbox starts:
// two tokens (Meridian, MRD; Harbor, HBR); per token vesting, airdrop and
// staking contracts; four distributions whose allocations follow D8 (trees
// of 1,000 to 1,200 leaves, calendar and interval schedules, one
// distribution with two roots); 64 staking pools of MRD (two pages) and 12
// of HBR with stakes in every pool, among them the "Whale pool" with 100,000
// stakes (Options.WhaleStakes: up to 2,000,000); two admin wallets; a portal with submissions; four demo wallets
// with deterministic keys whose V3 keystore files the sandbox writes.
//
// The seed comes in two parts, for a sandbox that must answer soon after
// it starts: SeedFirst lays out everything a first screen lists (tokens,
// contracts and their balances, pools and their stakes, allocations and
// their amounts); Finish computes the rest (the allocations' leaves and
// merkle trees, the stakers' addresses), in the background if the caller
// likes. Both are deterministic, so the World is the same bytes whichever
// way it was seeded. The contracts and pools listings need only the first
// part and are answered at once; until the World is finished every other
// operation waits for it, bounded by the request's context (and for the
// chain's deployment, Options.Ready, which the listings wait for too
// unless Options.ReadyNow says they need not).
//
// Values the service's interface leaves open, as the sandbox answers them:
//   - Contract types are VESTING, AIRDROP and STAKING.
//   - Pool statuses are ACTIVE, PAUSED and FINISHED; stake statuses STAKED,
//     UNSTAKING and WITHDRAWN. totalStaked counts STAKED and UNSTAKING.
//   - Pool durations (minimumStakeLength, stakeWithdrawalDelay,
//     rewardWithdrawalDelay) are in seconds; maxApy is a percentage
//     ("16.875" is 16.875% a year); claimNativeTokenFee,
//     unstakeNativeTokenFee and platformFee are in ether.
//   - Amounts are decimal strings in token units; tokens have 18 decimals.
//   - A pools cursor is the last pool id of the previous page (D4); a
//     cursor that names no pool of the token is a 400.
//   - An unknown path, or a known one with another method, is a 404
//     NotFoundError; request bodies are JSON (Content-Type
//     application/json) of at most 1 MiB, unknown fields ignored.
//   - The portal id is a UUID; an unknown one answers 404
//     {"error": "PORTAL_NOT_FOUND"}.
//   - A sign-in whose message does not parse is a 400 naming "message";
//     every other refusal (signature, wallet, domain, chain, time window,
//     replayed nonce) is 401 {"error": "Invalid signature"}. Access tokens
//     last TokenLifetime.
//   - A claim's sender may be any address, as on the production vester:
//     it pays the fee, the tokens go to the allocation's withdrawal
//     address; userCountryCode must be an assigned ISO 3166-1 alpha-2
//     code.
//   - Upload URLs are {PublicURL}/_sandbox/uploads/{storageKey}?..., signed
//     with HMAC-SHA256 over storage key, content type and expiry; a refused
//     upload is 403 (bad signature, expired), 415 (other Content-Type), 413
//     (over 50 MiB) or 507 (storage full). Assets are served at
//     {PublicURL}/_sandbox/assets/{storageKey}.
//
// # Checking what happened
//
// GET /_sandbox/journal (either API key) lists every write the sandbox
// applied; Server.Journal and Server.Transactions give the same in process.
// Faults inject latency, server errors, HTML error pages, malformed bodies
// and connection resets, some after the write was applied.
//
// # Chain
//
// Without a Chain the sandbox shows synthetic addresses and seed balances
// and builds instructions for chain 31337; see Chain for the seam a real
// chain plugs into: with one, the stake lists and pool totals follow the
// chain's Staked events, and the claimable amounts the vesters' state
// (schedules(id) and token balance, D18).
//
// # Allocation states
//
// The seed gives some demo allocations a Life (D18): claimed in part,
// cancelled, revoked, transferred to another demo wallet, on an
// underfunded vester, and claimed through a post-claim handler:
// Fixtures.LifeAllocationIDs lists them, and Fixtures.AllocationStates
// names every fixture allocation's state. A
// claim answer follows the vester: the recipient is its withdrawal
// address, a revoked allocation has nothing claimable, an underfunded
// vester pays no more than it holds, and a distribution with a handler is
// claimed through the vester's second withdraw.
package sandbox
