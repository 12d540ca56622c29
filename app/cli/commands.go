package cli

// commands lists every headless command; `allot help` prints them sorted.
var commands []command

func init() {
	commands = []command{
		contractsCommand,
		poolsCommand,
		stakesCommand,
		proofCommand,
		claimCommand,
		humanityCommand,
		txInitializeCommand,
		txStartCommand,
		txFundCommand,
		scheduleCreateCommand,
		creativeUploadCommand,
		sandboxCommand,
		accountListCommand,
		accountNewCommand,
		accountImportCommand,
		signinCommand,
		submissionCommand,
		stakeCommand,
	}
}
