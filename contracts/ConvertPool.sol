// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Convert pool: exchanges off-chain game currency and the game token. To-token pays tokens out
/// of the pool (sent by the operator); to-currency takes tokens in (sent by the holder).
/// Per goods code it keeps the net currency amount converted into tokens.
contract ConvertPool is Ownable {
    using SafeERC20 for IERC20;

    IERC20 public immutable token;
    mapping(bytes32 => bool) public processed;
    mapping(string => uint256) public currencyTotal;
    string[] private codes;
    mapping(string => bool) private known;

    error RequestAlreadyProcessed(string requestId);
    error PoolExhausted(uint256 available, uint256 requested);
    error CurrencyExhausted(string goodsCode, uint256 available, uint256 requested);

    event ConvertedToToken(string requestId, address indexed account, uint256 tokenAmount, string goodsCode, uint256 goodsAmount);
    event ConvertedToCurrency(string requestId, address indexed account, uint256 tokenAmount, string goodsCode, uint256 goodsAmount);

    constructor(IERC20 token_, address operator) Ownable(operator) {
        token = token_;
    }

    /// Pays `tokenAmount` to `account` for `goodsAmount` of game currency `goodsCode`.
    function toToken(string calldata requestId, address account, uint256 tokenAmount, string calldata goodsCode, uint256 goodsAmount)
        external
        onlyOwner
    {
        _claim(requestId);
        uint256 available = token.balanceOf(address(this));
        if (available < tokenAmount) revert PoolExhausted(available, tokenAmount);
        _remember(goodsCode);
        currencyTotal[goodsCode] += goodsAmount;
        token.safeTransfer(account, tokenAmount);
        emit ConvertedToToken(requestId, account, tokenAmount, goodsCode, goodsAmount);
    }

    /// Takes `tokenAmount` from the caller for `goodsAmount` of game currency `goodsCode`.
    function toCurrency(string calldata requestId, uint256 tokenAmount, string calldata goodsCode, uint256 goodsAmount)
        external
    {
        _claim(requestId);
        uint256 held = currencyTotal[goodsCode];
        if (held < goodsAmount) revert CurrencyExhausted(goodsCode, held, goodsAmount);
        currencyTotal[goodsCode] = held - goodsAmount;
        token.safeTransferFrom(msg.sender, address(this), tokenAmount);
        emit ConvertedToCurrency(requestId, msg.sender, tokenAmount, goodsCode, goodsAmount);
    }

    /// Tokens left to pay out.
    function poolAmount() external view returns (uint256) {
        return token.balanceOf(address(this));
    }

    /// Every goods code seen and its net currency total.
    function currencies() external view returns (string[] memory goodsCodes, uint256[] memory amounts) {
        goodsCodes = codes;
        amounts = new uint256[](codes.length);
        for (uint256 i = 0; i < codes.length; i++) amounts[i] = currencyTotal[codes[i]];
    }

    function _claim(string calldata requestId) private {
        bytes32 key = keccak256(bytes(requestId));
        if (processed[key]) revert RequestAlreadyProcessed(requestId);
        processed[key] = true;
    }

    function _remember(string calldata goodsCode) private {
        if (!known[goodsCode]) {
            known[goodsCode] = true;
            codes.push(goodsCode);
        }
    }
}
