//go:build tools

// This file pins modules that the packages of this repository are being
// written against, so that `go mod tidy` keeps them while the code that
// imports them lands. It is removed once every one of them is imported.
package main

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/charmbracelet/bubbles/filepicker"
	_ "github.com/charmbracelet/bubbles/table"
	_ "github.com/charmbracelet/bubbletea"
	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/charmbracelet/x/exp/teatest"
	_ "github.com/ethereum/go-ethereum/accounts/abi"
	_ "github.com/ethereum/go-ethereum/accounts/keystore"
	_ "github.com/ethereum/go-ethereum/ethclient"
	_ "github.com/ethereum/go-ethereum/ethclient/simulated"
	_ "github.com/golang-jwt/jwt/v5"
	_ "github.com/google/uuid"
	_ "github.com/shopspring/decimal"
	_ "golang.org/x/term"
)
