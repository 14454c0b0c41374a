package main

// The conformance suite's elicitation fixtures, built from mcpgen-annotated
// structs: every one is a generated runtime.Flow with a sealed requestState.
// Their names, input request keys and messages follow the scenario
// descriptions in @modelcontextprotocol/conformance (see SCENARIOS.md).

// ElicitationArgs is test_input_required_result_elicitation: it asks for the
// caller's name.
//
// It opts into unsealed answers (//mcpgen:unsealed) because the suite's
// ignore-extra-params scenario answers on a first call, without
// requestState, and expects a complete result. That is harmless here: the
// answer is a display name that the tool only echoes, so a forged answer can
// do no more than a caller typing another name; nothing is authorised,
// bought or read with it.
//
//mcpgen:tool test_input_required_result_elicitation MRTR (SEP-2322): asks for the caller's name with an in-band elicitation request.
//mcpgen:message What is your name?
//mcpgen:key user_name
//mcpgen:unsealed
type ElicitationArgs struct {
	Name string `json:"name,omitempty" elicit:"required,title=Name,description=How should we greet you?,maxLength=100"`
}

// RequestStateArgs is test_input_required_result_request_state: it asks for
// a confirmation and completes only with the sealed requestState of its
// first round.
//
//mcpgen:tool test_input_required_result_request_state MRTR (SEP-2322): round-trips a sealed requestState beside an elicitation request.
//mcpgen:message Please confirm
//mcpgen:key confirm
type RequestStateArgs struct {
	OK *bool `json:"ok,omitempty" elicit:"required,title=OK,description=Tick to confirm"`
}

// MultiRoundArgs is test_input_required_result_multi_round: it needs a name
// and a favourite colour. The suite answers the first form with the name
// only, so the flow asks again for the colour in round 2 and keeps the name
// inside the sealed requestState, since the suite does not resend it.
//
//mcpgen:tool test_input_required_result_multi_round MRTR (SEP-2322): gathers answers over several rounds, carrying earlier ones in the sealed requestState.
//mcpgen:message Tell us your name and your favorite color.
//mcpgen:key step
type MultiRoundArgs struct {
	Name  string `json:"name,omitempty" elicit:"required,title=Name,maxLength=100"`
	Color string `json:"color,omitempty" elicit:"required,title=Favorite color,maxLength=50"`
}

// TamperedStateArgs is test_input_required_result_tampered_state: the same
// confirmation as RequestStateArgs; a retry whose requestState fails to open
// (the suite appends "-TAMPERED") is rejected with -32602 by the runtime's
// AES-GCM seal, not by looking at the suffix.
//
//mcpgen:tool test_input_required_result_tampered_state MRTR (SEP-2322): rejects a retry whose requestState fails integrity verification.
//mcpgen:message Please confirm
//mcpgen:key confirm
type TamperedStateArgs struct {
	OK *bool `json:"ok,omitempty" elicit:"required,title=OK,description=Tick to confirm"`
}

// PromptArgs is the prompt test_input_required_result_prompt: prompts/get
// asks for the context the prompt should use, then returns the prompt.
//
//mcpgen:tool test_input_required_result_prompt MRTR (SEP-2322): a prompt that asks for its context with an in-band elicitation request.
//mcpgen:message What context should the prompt use?
//mcpgen:key user_context
type PromptArgs struct {
	Context string `json:"context,omitempty" elicit:"required,title=Context,maxLength=500"`
}

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -type ElicitationArgs,RequestStateArgs,MultiRoundArgs,TamperedStateArgs,PromptArgs
