// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Game token: a plain ERC-20 whose whole supply goes to the deployer-chosen owner, and which
/// lets convert pools the owner trusts take tokens in when the holder asks the pool to.
contract GameToken is ERC20, Ownable {
    mapping(address => bool) public trustedPools;

    event TrustedPoolSet(address indexed pool, bool trusted);

    constructor(string memory name_, string memory symbol_, uint256 supply, address owner_)
        ERC20(name_, symbol_)
        Ownable(owner_)
    {
        _mint(owner_, supply);
    }

    /// Trusts (or stops trusting) a convert pool.
    function setTrustedPool(address pool, bool trusted) external onlyOwner {
        trustedPools[pool] = trusted;
        emit TrustedPoolSet(pool, trusted);
    }

    function allowance(address holder, address spender) public view override returns (uint256) {
        if (trustedPools[spender]) return type(uint256).max;
        return super.allowance(holder, spender);
    }
}
